import * as vscode from 'vscode';
import { summarizeChange, unifiedDiff, type FileChange } from '../../core/edits';
import { EDITOR_SOURCE, editorToolDefinitions, isEditorToolName, parseEditorInput, type EditorInput, type EditorToolName } from '../../core/editorTools';
import type { ToolCallHooks } from '../../core/elicitation';
import type { BuiltInSource } from '../../core/tools';
import { NO_REVIEW, type CallReview, type ToolCallResult, type Unsubscribe } from '../../core/tools';
import type { ToolDefinition } from '../../core/tools';
import { applyChanges, StaleChange } from './applyChanges';
import type { ChangeDiffs } from './changeDiffs';
import { getProblems, listDirectory, messageOf, readFile } from './fileReads';
import { proposeCreate, proposeDelete, proposeEdit, proposeRenameFile } from './fileWrites';
import { ProposalRefused, textResult, type HandlerContext, type Proposal, type ProposeHandler, type ReadHandler } from './handler';
import { documentSymbols, findReferences, goToDefinition, proposeRenameSymbol, workspaceSymbols } from './languageTools';
import { runCommand } from './runCommand';
import { findFiles, searchText } from './textSearch';
import { PathRefused, resolveToolPath } from './workspacePaths';

/** Proposals waiting for their call: one reply's calls at most, with room to spare. */
const MAX_KEPT_PROPOSALS = 64;

type Handler =
  | { readonly kind: 'read'; readonly run: ReadHandler<EditorToolName> }
  | { readonly kind: 'write'; readonly propose: ProposeHandler<EditorToolName> };

const read = <N extends EditorToolName>(run: ReadHandler<N>): Handler => ({ kind: 'read', run });
const write = <N extends EditorToolName>(propose: ProposeHandler<N>): Handler => ({ kind: 'write', propose });

const HANDLERS: Readonly<Record<EditorToolName, Handler>> = {
  read_file: read(readFile),
  list_directory: read(listDirectory),
  find_files: read(findFiles),
  search_text: read(searchText),
  get_problems: read(getProblems),
  edit_file: write(proposeEdit),
  create_file: write(proposeCreate),
  rename_file: write(proposeRenameFile),
  delete_file: write(proposeDelete),
  workspace_symbols: read(workspaceSymbols),
  go_to_definition: read(goToDefinition),
  find_references: read(findReferences),
  document_symbols: read(documentSymbols),
  rename_symbol: write(proposeRenameSymbol),
  run_command: read(runCommand),
};

/**
 * The editor's own tools as a tool source (`editor__<tool>`), over the VS Code API: reads from
 * the editor's buffers, ripgrep, the language services and the terminal; writes as proposals
 * that are reviewed as a diff and applied as one WorkspaceEdit. In an untrusted workspace only
 * the read tools exist.
 */
export class EditorToolSource implements BuiltInSource, vscode.Disposable {
  readonly name = EDITOR_SOURCE;
  private readonly changed = new vscode.EventEmitter<void>();
  /** Proposals reviewed and waiting for their call, by tool_use id: the call applies exactly what was reviewed. */
  private readonly proposals = new Map<string, Proposal>();
  /** The diff tabs each waiting proposal opened (closed when it is answered). */
  private readonly shownDiffs = new Map<string, vscode.Uri[]>();
  private readonly trustGranted = vscode.workspace.onDidGrantWorkspaceTrust(() => this.changed.fire());

  constructor(
    private readonly diffs: ChangeDiffs,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  tools(): readonly ToolDefinition[] {
    return editorToolDefinitions(vscode.workspace.isTrusted);
  }

  onDidChange(listener: () => void): Unsubscribe {
    const subscription = this.changed.event(listener);
    return () => {
      subscription.dispose();
    };
  }

  async review(name: string, args: Readonly<Record<string, unknown>>, callId: string): Promise<CallReview> {
    const parsed = this.parse(name, args);
    if (!parsed.ok) return { kind: 'refused', reason: parsed.message };
    const handler = HANDLERS[parsed.toolName];
    try {
      if (handler.kind === 'read') {
        const outside = await this.outsidePathOf(parsed.input);
        return outside === undefined ? NO_REVIEW : { kind: 'review', changes: [], mustAsk: `it reads ${outside}, outside the workspace folders` };
      }
      const proposal = await handler.propose(parsed.input);
      this.keepProposal(callId, proposal);
      return { kind: 'review', changes: proposal.changes.map(summarizeChange), mustAsk: proposal.mustAsk };
    } catch (error) {
      if (error instanceof ProposalRefused || error instanceof PathRefused) return { kind: 'refused', reason: error.message };
      throw error;
    }
  }

  async call(name: string, args: Readonly<Record<string, unknown>>, signal: AbortSignal, hooks: ToolCallHooks = {}): Promise<ToolCallResult> {
    const parsed = this.parse(name, args);
    if (!parsed.ok) return textResult(parsed.message, true);
    const handler = HANDLERS[parsed.toolName];
    const ctx: HandlerContext = { signal, hooks, log: this.log };
    try {
      if (handler.kind === 'read') return await handler.run(parsed.input, ctx);
      const reviewed = hooks.callId === undefined ? undefined : this.proposals.get(hooks.callId);
      if (hooks.callId !== undefined) this.proposals.delete(hooks.callId);
      return await this.apply(reviewed ?? (await handler.propose(parsed.input)));
    } catch (error) {
      if (error instanceof ProposalRefused || error instanceof PathRefused) return textResult(error.message, true);
      if (error instanceof StaleChange) return textResult(`Nothing was applied: ${error.message} the change was worked out (the user or another tool edited it). Read the file again and redo the change.`, true);
      this.log.error(`${name} failed: ${messageOf(error)}`);
      return textResult(`${name} failed: ${messageOf(error)}`, true);
    }
  }

  /** Opens the diff of a proposal waiting for the user's answer (the approval card's files). */
  async showProposal(callId: string, index: number, preserveFocus: boolean): Promise<void> {
    const change = this.proposals.get(callId)?.changes[index];
    if (change === undefined) return;
    const right = await this.diffs.open(change, 'proposed change', { preserveFocus });
    this.shownDiffs.set(callId, [...(this.shownDiffs.get(callId) ?? []), right]);
  }

  /** Closes the diffs a proposal showed once the user answered it (accepted, rejected or stopped). */
  async closeProposal(callId: string): Promise<void> {
    const shown = this.shownDiffs.get(callId);
    this.shownDiffs.delete(callId);
    if (shown) await this.diffs.close(shown);
  }

  dispose(): void {
    this.trustGranted.dispose();
    this.changed.dispose();
    this.proposals.clear();
  }

  /** Keeps a reviewed proposal for its call; a denied call's proposal is never taken, so only the latest few are kept. */
  private keepProposal(callId: string, proposal: Proposal): void {
    this.proposals.set(callId, proposal);
    for (const old of this.proposals.keys()) {
      if (this.proposals.size <= MAX_KEPT_PROPOSALS) break;
      this.proposals.delete(old);
    }
  }

  private async apply(proposal: Proposal): Promise<ToolCallResult> {
    await applyChanges(proposal.changes);
    return { content: [{ type: 'text', text: appliedText(proposal.changes) }], isError: false, changes: proposal.changes };
  }

  private parse(name: string, args: Readonly<Record<string, unknown>>): { readonly ok: true; readonly toolName: EditorToolName; readonly input: EditorInput<EditorToolName> } | { readonly ok: false; readonly message: string } {
    const toolName = name.slice(EDITOR_SOURCE.length + 2);
    if (!name.startsWith(`${EDITOR_SOURCE}__`) || !isEditorToolName(toolName)) return { ok: false, message: `${name} is not one of the editor's tools.` };
    if (!vscode.workspace.isTrusted && !this.tools().some((t) => t.name === name)) return { ok: false, message: `${name} does not run in an untrusted workspace: only the read tools do. Ask the user to trust the workspace.` };
    const parsed = parseEditorInput(toolName, args);
    return parsed.ok ? { ok: true, toolName, input: parsed.value } : parsed;
  }

  /** The absolute path of a read tool's `path` argument when it lies outside the workspace folders. */
  private async outsidePathOf(input: EditorInput<EditorToolName>): Promise<string | undefined> {
    const written = 'path' in input && typeof input.path === 'string' ? input.path : 'cwd' in input && typeof input.cwd === 'string' ? input.cwd : undefined;
    if (written === undefined) return undefined;
    const resolved = await resolveToolPath(written);
    return resolved.inside ? undefined : resolved.real;
  }
}

/** What the model reads after its change was applied: each file, its line counts, and the diff exactly as applied. */
function appliedText(changes: readonly FileChange[]): string {
  const rows = changes.map((change) => {
    const s = summarizeChange(change);
    const what = change.kind === 'rename' ? `moved ${change.fromLabel} → ${change.label}` : `${change.kind === 'edit' ? 'edited' : change.kind === 'create' ? 'created' : 'deleted'} ${s.label} (+${s.added} −${s.removed})`;
    return { what, diff: unifiedDiff(change) };
  });
  return `Applied and saved: ${rows.map((r) => r.what).join('; ')}.\n\n${rows.map((r) => '```diff\n' + r.diff + '\n```').join('\n')}`;
}
