import type { AnswerElicitation, ToolCallHooks } from '../../core/elicitation';

/** The hooks of one server's calls running now, newest last: a server's question goes to the call that asked. */
export class CallsInFlight {
  private readonly calls: ToolCallHooks[] = [];

  /** Runs `work` as a call with `hooks`, listed until it settles. */
  async during<T>(hooks: ToolCallHooks, work: () => Promise<T>): Promise<T> {
    this.calls.push(hooks);
    try {
      return await work();
    } finally {
      this.calls.splice(this.calls.indexOf(hooks), 1);
    }
  }

  /** The newest running call that listens for questions; undefined when none does. */
  questionAnswerer(): AnswerElicitation | undefined {
    return [...this.calls].reverse().find((hooks) => hooks.onElicitation !== undefined)?.onElicitation;
  }
}
