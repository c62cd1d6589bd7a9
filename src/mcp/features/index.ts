export { answerElicitRequest } from './elicitationBridge';
export { promptContent, resourceTexts, type ResourceText } from './promptContent';
export { listPrompts, listResources, type ServerPrompt, type ServerResource } from './serverFeatures';
