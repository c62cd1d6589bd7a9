import type { ApprovalAnswer, ApprovalRequest as LoopApprovalRequest, Approver } from '../core/turn/ports';
import type { HostToWebview } from '../protocol';

/** Approval prompts shown in the chat; each waits for the user's answer or the turn's cancellation. */
export class WebviewApprover implements Approver {
  private readonly waiting = new Map<string, (answer: ApprovalAnswer) => void>();

  constructor(private readonly post: (msg: HostToWebview) => void) {}

  approve(request: LoopApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
    const callId = request.toolUseId;
    return new Promise((resolve) => {
      const onAbort = (): void => settle('deny');
      const settle = (answer: ApprovalAnswer): void => {
        if (!this.waiting.delete(callId)) return;
        signal.removeEventListener('abort', onAbort);
        this.post({ type: 'approvalSettled', callId });
        resolve(answer);
      };
      this.waiting.set(callId, settle);
      if (signal.aborted) return settle('deny');
      signal.addEventListener('abort', onAbort, { once: true });
      this.post({ type: 'approvalRequest', request: { callId, toolName: request.name, input: request.input } });
    });
  }

  /** The user's answer; an unknown or already settled call is ignored (a stale prompt). */
  answer(callId: string, answer: ApprovalAnswer): void {
    this.waiting.get(callId)?.(answer);
  }
}
