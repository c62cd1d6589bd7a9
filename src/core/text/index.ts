export { markdownText } from './markdownText';
export { openableHref, webHref } from './safeLink';
export { headOf } from './textCut';
