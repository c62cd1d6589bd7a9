import type * as vscode from 'vscode';
import type { ToolCallHooks } from '../../core/elicitation';
import type { FileChange } from '../../core/edits';
import type { EditorInput, EditorToolName } from '../../core/editorTools';
import type { ToolCallResult } from '../../core/tools';

/** What a running editor tool may use besides its input. */
export interface HandlerContext {
  /** Aborted by Stop: a handler ends promptly and resolves (a cancelled result is the turn loop's business). */
  readonly signal: AbortSignal;
  readonly hooks: ToolCallHooks;
  /** The extension's log, for what the user may want to look up (never the model's text). */
  readonly log: vscode.LogOutputChannel;
}

/** A tool that reads: it runs and returns what it found. Failures come back as `isError` results, never as rejections. */
export type ReadHandler<N extends EditorToolName> = (input: EditorInput<N>, ctx: HandlerContext) => Promise<ToolCallResult>;

/**
 * What a writing tool would do, worked out before it runs: the changes to apply (each with the
 * text it expects to find), and why it must ask whatever its run policy (null: the policy decides).
 */
export interface Proposal {
  readonly changes: readonly FileChange[];
  readonly mustAsk: string | null;
}

/** A tool that writes: it proposes, and the source applies what was proposed (and reviewed) as one WorkspaceEdit. Throws ProposalRefused to refuse. */
export type ProposeHandler<N extends EditorToolName> = (input: EditorInput<N>) => Promise<Proposal>;

/** A proposal that cannot be made; the message is the model's error result. */
export class ProposalRefused extends Error {}

export function textResult(text: string, isError = false): ToolCallResult {
  return { content: [{ type: 'text', text }], isError };
}
