export { type AnswerElicitation, type ElicitationAnswer, type ElicitationRequest, type ToolCallHooks } from './elicitation';
export { answerProblems, type FieldValue, type FormField, formFields } from './elicitationForm';
