import { ModelError, type ModelClient, type ModelRequest } from '../models/model';
import type { AssistantBlock, StreamEvent } from '../stream/events';
import type { TurnObserver } from './ports';

export type Reply =
  | { readonly ok: true; readonly content: readonly AssistantBlock[]; readonly stopReason: string | null; readonly events: readonly StreamEvent[] }
  | { readonly ok: false; readonly reason: 'cancelled' | 'error'; readonly message: string; readonly cause?: string; readonly events: readonly StreamEvent[] };

export const CANCELLED_TURN = 'Cancelled by the user.';

/**
 * Streams one response. On success: the assistant message and its usage, to append. On cancel:
 * whatever text had arrived, so the transcript shows what the user saw; never a half tool call.
 */
export async function streamReply(model: ModelClient, request: ModelRequest, observer: TurnObserver, signal: AbortSignal): Promise<Reply> {
  let partial = '';
  const onText = (delta: string): void => {
    partial += delta;
    observer.onText?.(delta);
  };
  try {
    const onThinking = (delta: string): void => observer.onThinking?.(delta);
    const response = await model.stream(request, { onText, onThinking }, signal);
    const at = new Date().toISOString();
    observer.onUsage?.({ ...response.usage, model: response.model });
    return {
      ok: true,
      content: response.content,
      stopReason: response.stopReason,
      events: [
        { type: 'assistant_message', content: response.content, stopReason: response.stopReason, messageId: response.id, at },
        {
          type: 'usage',
          model: response.model,
          ...response.usage,
          ...(response.cacheMiss !== undefined ? { cacheMiss: response.cacheMiss } : {}),
          ...(response.cleared !== undefined ? { cleared: response.cleared } : {}),
          ...(response.compacted !== undefined ? { compacted: response.compacted } : {}),
          at,
        },
      ],
    };
  } catch (err) {
    const at = new Date().toISOString();
    const partialEvents: StreamEvent[] = partial.length > 0 ? [{ type: 'assistant_message', content: [{ type: 'text', text: partial }], stopReason: null, at }] : [];
    if (signal.aborted || (err instanceof ModelError && err.kind === 'cancelled')) {
      return { ok: false, reason: 'cancelled', message: CANCELLED_TURN, events: partialEvents };
    }
    const message = err instanceof Error ? err.message : String(err);
    return { ok: false, reason: 'error', message, ...(err instanceof ModelError ? { cause: err.brief } : {}), events: partialEvents };
  }
}
