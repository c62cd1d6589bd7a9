import type { ElicitationPromptView, ElicitationReply, HostToWebview } from '../chatView/contract';
import type { ElicitationAnswer } from '../elicitation/elicitation';
import { answerProblems } from '../elicitation/elicitationForm';
import { webHref } from '../text/safeLink';
import type { ElicitationPrompt, Elicitor } from '../turn/ports';

interface Waiting {
  readonly view: ElicitationPromptView;
  readonly settle: (answer: ElicitationAnswer) => void;
}

/**
 * A server's questions shown in the chat, each waiting for the user's answer, Stop, or the
 * server withdrawing it. A form answer is checked against its fields here as well as in the
 * webview: the webview is untrusted input. A link is opened only after the user accepts it.
 */
export class ChatElicitor implements Elicitor {
  private readonly waiting = new Map<string, Waiting>();
  private next = 0;

  constructor(
    private readonly post: (msg: HostToWebview) => void,
    private readonly warn: (message: string) => void,
    /** Opens an http(s) link the user accepted, outside the editor. */
    private readonly openExternal: (href: string) => Promise<unknown>,
  ) {}

  ask({ toolUseId, name, question }: ElicitationPrompt, signal: AbortSignal): Promise<ElicitationAnswer> {
    const promptId = `${toolUseId}#${++this.next}`;
    const base = { promptId, callId: toolUseId, toolName: name, server: question.server, message: question.message };
    const view: ElicitationPromptView = question.mode === 'form' ? { ...base, mode: 'form', fields: question.fields } : { ...base, mode: 'url', url: question.url };
    return new Promise((resolve) => {
      const onAbort = (): void => settle({ action: 'cancel' });
      const settle = (answer: ElicitationAnswer): void => {
        if (!this.waiting.delete(promptId)) return;
        signal.removeEventListener('abort', onAbort);
        this.post({ type: 'elicitationSettled', promptId });
        resolve(answer);
      };
      this.waiting.set(promptId, { view, settle });
      if (signal.aborted) return settle({ action: 'cancel' });
      signal.addEventListener('abort', onAbort, { once: true });
      this.post({ type: 'elicitationRequest', prompt: view });
    });
  }

  /** Prompts still waiting, for a snapshot (a webview reload keeps showing them). */
  pending(): readonly ElicitationPromptView[] {
    return [...this.waiting.values()].map((w) => w.view);
  }

  /** The user's reply; an unknown or settled prompt is ignored (a stale form). */
  async answer(promptId: string, reply: ElicitationReply): Promise<void> {
    const waiting = this.waiting.get(promptId);
    if (waiting === undefined) return;
    const { view, settle } = waiting;
    if (reply.action !== 'accept') return settle(reply);
    if (view.mode === 'url') {
      const href = webHref(view.url);
      if (href === null) {
        this.warn(`MCP server "${view.server}" asked to open a link Quiver does not open (only http and https): ${view.url.slice(0, 200)}`);
        return settle({ action: 'decline' });
      }
      // Settled first: a second Accept (a redrawn card) finds nothing waiting and opens nothing.
      settle({ action: 'accept', content: {} });
      await this.openExternal(href);
      return;
    }
    const problems = answerProblems(view.fields, reply.content);
    if (problems.length > 0) return this.warn(`The answer to "${view.server}" was not sent: ${problems.map((p) => p.message).join('; ')}.`);
    const known = new Set(view.fields.map((f) => f.key));
    settle({ action: 'accept', content: Object.fromEntries(Object.entries(reply.content).filter(([key]) => known.has(key))) });
  }
}
