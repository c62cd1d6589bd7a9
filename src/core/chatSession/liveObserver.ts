import { addUsage, EMPTY_USAGE, type TokenUsage } from '../chat/items';
import type { HostToWebview } from '../chatView/contract';
import { SEARCH_TOOLS_NAME } from '../tools/definitions';
import type { TurnObserver } from '../turn/ports';

/** What the live observer reaches in its session. */
export interface LiveView {
  /** Whether the observed conversation is still the one shown: news of another is dropped. */
  readonly shown: () => boolean;
  readonly post: (msg: HostToWebview) => void;
  readonly banner: (severity: 'error' | 'warning' | 'info', message: string) => void;
  /** A fresh id for the items of one request's reply. */
  readonly nextRequestId: (cycle: number) => string;
  readonly liveUsage: () => TokenUsage | null;
  readonly alwaysAllow: (tool: string) => Promise<unknown>;
  /** A durable event was recorded: the chat's items follow the stream. */
  readonly onEvent: (type: string) => void;
}

/**
 * A turn's live progress as chat messages: text and thinking deltas, calls starting and their
 * progress, the usage so far. Each stretch of text or thinking in a reply is its own item, in
 * the order the model wrote them, as the stream shows it once the reply is recorded.
 */
export function liveObserver(view: LiveView): TurnObserver {
  let request = '';
  let part = 0;
  let streaming: 'text' | 'thinking' | null = null;
  const partId = (kind: 'text' | 'thinking'): string => {
    if (streaming !== kind) {
      streaming = kind;
      part++;
    }
    return `${request}.${part}`;
  };
  return {
    onRequest: ({ cycle }) => {
      request = view.nextRequestId(cycle);
      part = 0;
      streaming = null;
    },
    onWaitingForServers: (servers) => {
      if (view.shown()) view.banner('info', `Waiting for MCP ${servers.length === 1 ? 'server' : 'servers'} ${servers.map((s) => `"${s}"`).join(', ')} to start: this message needs ${servers.length === 1 ? 'a tool of it' : 'their tools'}. Press Stop to cancel.`);
    },
    onText: (text) => {
      if (view.shown()) view.post({ type: 'textDelta', itemId: partId('text'), text });
    },
    onThinking: (text) => {
      if (view.shown() && text !== '') view.post({ type: 'thinkingDelta', itemId: partId('thinking'), text });
    },
    onToolCallStarted: (call) => {
      if (view.shown()) view.post({ type: 'toolCallStarted', callId: call.id, name: call.name, input: call.input, card: call.name === SEARCH_TOOLS_NAME ? 'search' : 'tool' });
    },
    onToolProgress: (id, p) => {
      if (view.shown()) view.post({ type: 'toolProgress', callId: id, progress: { progress: p.progress, total: p.total ?? null, message: p.message ?? null } });
    },
    onUsage: (usage) => {
      if (!view.shown()) return;
      const turn = { input: usage.inputTokens, output: usage.outputTokens, cacheRead: usage.cacheReadTokens, cacheWrite: usage.cacheWriteTokens };
      view.post({ type: 'usage', usage: addUsage(view.liveUsage() ?? EMPTY_USAGE, turn) });
    },
    onAlwaysAllowed: (name) => {
      view.alwaysAllow(name).then(undefined, (err: unknown) => view.banner('error', `Could not save "always allow" for ${name}: ${String(err)}`));
    },
    onEvent: (event) => {
      if (view.shown()) view.onEvent(event.type);
    },
  };
}
