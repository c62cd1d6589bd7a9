export { type AnswerElicitation, type ElicitationAnswer, type ElicitationRequest, type ToolCallHooks } from './elicitation';
export { answerProblems, formFields, initialAnswer, type ChoiceOption, type FieldValue, type FormAnswer, type FormField } from './elicitationForm';
