import type { TurnEndReason } from '../stream/events';

/** What the turn does after a reply, by its stop reason. */
export type AfterReply =
  | { readonly kind: 'run_calls' }
  | { readonly kind: 'continue' }
  | { readonly kind: 'end'; readonly reason: TurnEndReason; readonly message: string | undefined; readonly unrun: string | undefined };

/**
 * Only a reply that stopped with `tool_use` has complete calls: one cut at `max_tokens` may hold
 * a tool_use whose input the SDK filled from half its JSON, so its calls are answered, never run.
 * `pause_turn` is sent back as it is for the model to carry on.
 */
export function afterReply(stopReason: string | null, maxTokens: number): AfterReply {
  switch (stopReason) {
    case 'tool_use':
      return { kind: 'run_calls' };
    case 'pause_turn':
      return { kind: 'continue' };
    // A compaction that paused (`pause_after_compaction`) returns its block alone: sent back, the model goes on from it.
    case 'compaction':
      return { kind: 'continue' };
    case 'max_tokens':
      return {
        kind: 'end',
        reason: 'cut_off',
        message: `The reply reached its length limit (max_tokens ${maxTokens}, which thinking counts toward) and was cut off. Raise quiver.maxTokens (0 uses the model's own limit) or send "continue".`,
        unrun: `Not run: your reply was cut off at max_tokens (${maxTokens}) before this call's input was complete. Call it again in a shorter reply if it is still needed.`,
      };
    case 'model_context_window_exceeded':
      return {
        kind: 'end',
        reason: 'cut_off',
        message: 'The conversation has grown past the model\'s context window, so the reply was cut off. Start a new chat (carry over what matters), or use a model with a larger window.',
        unrun: 'Not run: your reply was cut off at the context window limit before this call was complete.',
      };
    case 'refusal':
      return {
        kind: 'end',
        reason: 'declined',
        message: 'The model declined to continue this request (stop reason "refusal"). Rephrase it, or start a new chat.',
        unrun: 'Not run: the reply stopped with a refusal.',
      };
    default:
      return { kind: 'end', reason: 'done', message: undefined, unrun: 'Not run: the reply did not stop to call tools (stop reason was not tool_use).' };
  }
}
