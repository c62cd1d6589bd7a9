import type { Attachment } from '../attachments/attachment';
import type { ToggleDirection } from '../availability';
import { configAt } from '../stream/config';
import { conversationAssignment, conversationToggle, type ToggleResult, type ToggleTarget } from '../stream/toggles';
import type { CommitBuffer } from './commitBuffer';
import type { TurnDeps, TurnResult, TurnSettings } from './ports';
import { runTurn } from './turnLoop';
import { allBuiltins } from './toolPlan';
import { settingsChange, startPermittedServers } from './turnStart';

export interface SessionDeps extends TurnDeps {
  /** Read at every turn start, so settings edited between turns are recorded then. */
  readonly settings: () => TurnSettings;
}

/** The one answer to a message or a regenerate while a reply is still running. */
export const REPLY_RUNNING = 'A reply is still being written; wait for it or press Stop.';

/**
 * One open conversation: sends messages (one turn at a time), regenerates the last reply,
 * and applies conversation-scoped toggles. What the extension's chat view talks to.
 */
export class ConversationSession {
  private running: Promise<TurnResult> | undefined;
  private buffer: CommitBuffer | undefined;
  /** Settles when every server start begun by an assignment has an outcome; never rejects. */
  private serversStarting: Promise<void> = Promise.resolve();

  constructor(private readonly deps: SessionDeps) {}

  /** Sends a message; `forced` is `/use NAME` for this message only; `attachments` are recorded with it. */
  send(text: string, signal: AbortSignal, forced?: string, attachments: readonly Attachment[] = [], replaces: number | null = null): Promise<TurnResult> {
    return this.run({ kind: 'message', text, attachments, replaces, ...(forced !== undefined ? { forced } : {}) }, signal);
  }

  /** Regenerates the last reply; promotions (and every other delta) made before stay. */
  restart(signal: AbortSignal): Promise<TurnResult> {
    return this.run({ kind: 'restart' }, signal);
  }

  /** Named or bulk enable/disable for this conversation; mid-cycle it folds at the running call's position. */
  toggle(target: ToggleTarget, direction: ToggleDirection): Promise<ToggleResult> {
    return this.commit(conversationToggle(configAt(this.deps.log.events()), this.catalogue(), target, direction));
  }

  /**
   * `/set tools.NAME.enable.state=false` and other key assignments, for this conversation.
   * A server left off that the assignment permits a tool of starts in the background, so the
   * answer does not wait on a slow server; the next turn start waits for it.
   */
  async assign(text: string): Promise<ToggleResult> {
    const { source } = this.deps;
    const result = await this.commit(conversationAssignment(configAt(this.deps.log.events()), this.catalogue(), text, (key) => source.serverOfKey(key)));
    if (result.delta !== undefined) {
      // Mid-cycle the change sits in the commit buffer, not yet in the log.
      const pending = this.buffer ? [{ type: 'config_delta', source: 'user', tools: result.delta, at: new Date().toISOString() } as const] : [];
      const started = startPermittedServers([...this.deps.log.events(), ...pending], this.deps.source);
      this.serversStarting = Promise.all([this.serversStarting, started]).then(() => undefined);
    }
    return result;
  }

  private async run(start: Parameters<typeof runTurn>[1], signal: AbortSignal): Promise<TurnResult> {
    if (this.running) return { reason: 'refused', message: REPLY_RUNNING };
    const { log, model, source, builtins, approver, elicitor, observer, results } = this.deps;
    const ctx = { log, model, source, builtins, approver, elicitor, observer, results, settings: this.deps.settings(), currentTools: () => this.deps.settings().tools, onBuffer: (b: CommitBuffer | undefined) => (this.buffer = b), serversStarting: this.serversStarting };
    this.running = runTurn(ctx, start, signal);
    try {
      return await this.running;
    } finally {
      this.running = undefined;
    }
  }

  private async commit(result: ToggleResult): Promise<ToggleResult> {
    if (result.delta === undefined) return result;
    if (this.buffer) this.buffer.write(result.delta);
    else {
      // Settings first, as they stand now: recorded later, they would fold over this change.
      const events = this.deps.log.events();
      const at = new Date().toISOString();
      const appended = [...settingsChange(events, this.deps.settings().tools, at), { type: 'config_delta', source: 'user', tools: result.delta, at } as const];
      await this.deps.log.append(...appended);
      for (const event of appended) this.deps.observer.onEvent?.(event);
    }
    return result;
  }

  private catalogue() {
    return [...allBuiltins(this.deps.builtins.definitions), ...this.deps.source.tools()];
  }
}
