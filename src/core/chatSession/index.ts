export { ChatSession, type Completions } from './session';
export type { ChangesUndone, ChatSessionPorts } from './ports';
