export { RESULT_REF } from './resultRefs';
export { resultText } from './resultText';
