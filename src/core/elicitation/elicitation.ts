import type { FormAnswer, FormField } from './elicitationForm';

/** What a server asked the user, through the tool call it was running (or on its own). */
export type ElicitationRequest =
  | { readonly mode: 'form'; readonly server: string; readonly message: string; readonly fields: readonly FormField[] }
  | { readonly mode: 'url'; readonly server: string; readonly message: string; readonly url: string };

/** The user's answer, as MCP's `ElicitResult` actions: accept (with the form's content), decline, or cancel (dismissed). */
export type ElicitationAnswer =
  | { readonly action: 'accept'; readonly content: FormAnswer }
  | { readonly action: 'decline' }
  | { readonly action: 'cancel' };

export type AnswerElicitation = (request: ElicitationRequest, signal: AbortSignal) => Promise<ElicitationAnswer>;

/** Progress a server reported for a running call (`notifications/progress`). */
export interface CallProgress {
  readonly progress: number;
  readonly total: number | undefined;
  readonly message: string | undefined;
}

/** What a caller hears of one tool call while it runs. */
export interface ToolCallHooks {
  /** The model's tool_use id, which ties the call to its review (ToolSource.review). */
  readonly callId?: string;
  readonly onProgress?: (progress: CallProgress) => void;
  /** A question the server asks while running this call; without it the source's own answerer is asked. */
  readonly onElicitation?: AnswerElicitation;
}
