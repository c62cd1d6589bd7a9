export { type ApprovalDecision, type ApprovalRequest, type Approver, type BuiltinTools, type ElicitationPrompt, type Elicitor, type TurnObserver, type TurnResult, type TurnSettings } from './ports';
export { createSearchBuiltins } from './searchBuiltins';
export { ConversationSession, REPLY_RUNNING } from './session';
export { allBuiltins } from './toolPlan';
export { untilAborted } from './untilAborted';
export { promotedTools, unloadedTools, upcomingPlan } from './upcomingPlan';
