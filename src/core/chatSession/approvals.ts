import type { ApprovalDecision, ApprovalRequest as LoopApprovalRequest, Approver } from '../turn/ports';
import type { HostToWebview } from '../chatView/contract';

const DENIED: ApprovalDecision = { answer: 'deny', reason: '' };

/** Approval prompts shown in the chat; each waits for the user's answer or the turn's cancellation. */
export class ChatApprover implements Approver {
  private readonly waiting = new Map<string, (decision: ApprovalDecision) => void>();

  constructor(
    private readonly post: (msg: HostToWebview) => void,
    /** A call with file changes to review: its diff opens beside the chat as the question is asked, and closes once answered. */
    private readonly changes: { readonly show: (callId: string) => void; readonly close: (callId: string) => void },
  ) {}

  approve(request: LoopApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
    const callId = request.toolUseId;
    return new Promise((resolve) => {
      const onAbort = (): void => settle(DENIED);
      const settle = (decision: ApprovalDecision): void => {
        if (!this.waiting.delete(callId)) return;
        signal.removeEventListener('abort', onAbort);
        this.post({ type: 'approvalSettled', callId });
        this.changes.close(callId);
        resolve(decision);
      };
      this.waiting.set(callId, settle);
      if (signal.aborted) return settle(DENIED);
      signal.addEventListener('abort', onAbort, { once: true });
      this.post({ type: 'approvalRequest', request: { callId, toolName: request.name, input: request.input, review: request.review } });
      if (request.review !== null && request.review.changes.length > 0) this.changes.show(callId);
    });
  }

  /** The user's answer; an unknown or already settled call is ignored (a stale prompt). */
  answer(callId: string, decision: ApprovalDecision): void {
    this.waiting.get(callId)?.(decision);
  }
}
