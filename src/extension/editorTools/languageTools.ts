import * as vscode from 'vscode';
import { applyOffsetEdits, isInGitFolder, protectedChangeReason, type FileChange } from '../../core/edits';
import type { EditorInput } from '../../core/editorTools';
import type { ToolCallResult } from '../../core/tools';
import { ProposalRefused, textResult, type HandlerContext, type ProposeHandler, type ReadHandler } from './handler';
import {
  WARMED_UP_NOTE, askUntilAnswered, fileName, findSymbol, listLocations, messageOf, openToolDocument, plural, positionText, targetOf,
  type SymbolPosition,
} from './languageLocations';
import { typescriptProjectLoaded } from './typescriptReady';
import { labelOf, resolveToolPath } from './workspacePaths';

/**
 * The language tools of the editor's own tool source. They ask the editor's language services
 * (`vscode.execute…Provider`), so they work for every language the user has an extension for.
 */

const CANCELLED = textResult('Cancelled.', true);
/** Most symbols workspace_symbols lists. */
const MAX_WORKSPACE_SYMBOLS = 100;
/** Most lines document_symbols lists. */
const MAX_OUTLINE_LINES = 1000;

type Found = vscode.Location | vscode.LocationLink;

export const goToDefinition: ReadHandler<'go_to_definition'> = (input, ctx) => locationsAt(input, ctx, 'definition', (at) =>
  vscode.commands.executeCommand<Found[] | undefined>('vscode.executeDefinitionProvider', at.document.uri, at.position));

export const findReferences: ReadHandler<'find_references'> = (input, ctx) => locationsAt(input, ctx, 'reference', (at) =>
  vscode.commands.executeCommand<Found[] | undefined>('vscode.executeReferenceProvider', at.document.uri, at.position));

/** Runs a location question at the position the input names and lists the answer. */
async function locationsAt(
  input: EditorInput<'go_to_definition' | 'find_references'>, ctx: HandlerContext, noun: string, ask: (at: SymbolPosition) => Thenable<Found[] | undefined>,
): Promise<ToolCallResult> {
  try {
    const at = await findSymbol(input.path, input.line, input.symbol);
    if ('error' in at) return textResult(at.error, true);
    const loaded = await typescriptProjectLoaded(at.document, ctx.signal);
    const { answer: found, warmedUp } = await askUntilAnswered(() => ask(at), (answer) => (answer ?? []).length, ctx.signal);
    if (ctx.signal.aborted) return CANCELLED;
    const where = `"${input.symbol}" at ${positionText(at.label, at.position.line, at.position.character)}`;
    if (found === undefined || found.length === 0) {
      return textResult(`No ${noun} found for ${where}. The language service found none, or no installed extension provides ${noun}s for this kind of file.`);
    }
    const listed = await listLocations(found.map(targetOf), noun);
    return textResult(`${noun === 'definition' ? 'Definition' : 'References'} of ${where}: ${listed}${warmedUp || !loaded ? WARMED_UP_NOTE : ''}`);
  } catch (err) {
    ctx.log.warn(`${noun} lookup failed: ${messageOf(err)}`);
    return textResult(`The language service failed to find ${noun}s: ${messageOf(err)}`, true);
  }
}

export const documentSymbols: ReadHandler<'document_symbols'> = async (input, ctx) => {
  try {
    const opened = await openToolDocument(input.path);
    if ('error' in opened) return textResult(opened.error, true);
    const { document, label } = opened;
    const ask = (): Thenable<(vscode.SymbolInformation | vscode.DocumentSymbol)[] | undefined> =>
      vscode.commands.executeCommand('vscode.executeDocumentSymbolProvider', document.uri);
    // A blank file has no symbols to wait for.
    const symbols = document.getText().trim() === '' ? [] : (await askUntilAnswered(ask, (answer) => (answer ?? []).length, ctx.signal)).answer;
    if (ctx.signal.aborted) return CANCELLED;
    if (symbols === undefined || symbols.length === 0) {
      return textResult(`No symbols in ${label}: the language service found none, or no installed extension provides symbols for this kind of file.`);
    }
    const lines = outline(symbols);
    const shown = lines.slice(0, MAX_OUTLINE_LINES);
    const more = lines.length > shown.length ? `\n… and ${lines.length - shown.length} more (the first ${MAX_OUTLINE_LINES} listed)` : '';
    return textResult(`${plural(lines.length, 'symbol')} in ${label} (lines are 1-based, where each name is written):\n${shown.join('\n')}${more}`);
  } catch (err) {
    ctx.log.warn(`document_symbols failed: ${messageOf(err)}`);
    return textResult(`The language service failed to list the symbols: ${messageOf(err)}`, true);
  }
};

/** An indented outline, `Kind name — line N`: a tree for `DocumentSymbol`s, a flat list (with containers) for `SymbolInformation`s. */
function outline(symbols: readonly (vscode.SymbolInformation | vscode.DocumentSymbol)[]): string[] {
  const lines: string[] = [];
  const hierarchical = symbols.every((s) => 'children' in s && Array.isArray(s.children) && 'selectionRange' in s);
  if (hierarchical) {
    const visit = (items: readonly vscode.DocumentSymbol[], depth: number): void => {
      for (const s of [...items].sort((a, b) => a.range.start.compareTo(b.range.start))) {
        const detail = s.detail.trim() === '' ? '' : ` ${s.detail.trim()}`;
        lines.push(`${'  '.repeat(depth)}${kindName(s.kind)} ${s.name}${detail} — line ${s.selectionRange.start.line + 1}`);
        visit(s.children, depth + 1);
      }
    };
    visit(symbols as vscode.DocumentSymbol[], 0);
    return lines;
  }
  const flat = symbols.filter((s): s is vscode.SymbolInformation => 'location' in s);
  for (const s of [...flat].sort((a, b) => a.location.range.start.compareTo(b.location.range.start))) {
    const container = s.containerName === '' ? '' : ` (in ${s.containerName})`;
    lines.push(`${kindName(s.kind)} ${s.name}${container} — line ${s.location.range.start.line + 1}`);
  }
  return lines;
}

function kindName(kind: vscode.SymbolKind): string {
  return vscode.SymbolKind[kind] ?? 'Symbol';
}

export const workspaceSymbols: ReadHandler<'workspace_symbols'> = async (input, ctx) => {
  try {
    const ask = (): Thenable<vscode.SymbolInformation[] | undefined> => vscode.commands.executeCommand('vscode.executeWorkspaceSymbolProvider', input.query);
    const { answer: found, warmedUp } = await askUntilAnswered(ask, (answer) => (answer ?? []).length, ctx.signal, [250, 500, 750]);
    if (ctx.signal.aborted) return CANCELLED;
    if (found === undefined || found.length === 0) {
      return textResult(`No symbols match "${input.query}". Language services search what they have loaded (TypeScript: the projects of the files opened so far); open a related file with document_symbols, or use search_text.`);
    }
    const query = input.query.toLowerCase();
    const rank = (s: vscode.SymbolInformation): number => (s.name.toLowerCase() === query ? 0 : s.name.toLowerCase().startsWith(query) ? 1 : 2);
    const sorted = found.map((s, i) => ({ s, i })).sort((a, b) => rank(a.s) - rank(b.s) || a.i - b.i).map((x) => x.s);
    const shown = sorted.slice(0, MAX_WORKSPACE_SYMBOLS);
    const lines = shown.map((s) => {
      const at = s.location.range.start;
      const container = s.containerName === '' ? '' : ` (in ${s.containerName})`;
      return `${positionText(fileName(s.location.uri), at.line, at.character)}  ${kindName(s.kind)} ${s.name}${container}`;
    });
    const header = `${plural(found.length, 'symbol')} match "${input.query}"${found.length > shown.length ? ` (the best ${shown.length} listed)` : ''}:`;
    return textResult([header, ...lines].join('\n') + (warmedUp ? WARMED_UP_NOTE : ''));
  } catch (err) {
    ctx.log.warn(`workspace_symbols failed: ${messageOf(err)}`);
    return textResult(`The language service failed to search symbols: ${messageOf(err)}`, true);
  }
};

/**
 * Renames a symbol with the language service's rename: its `WorkspaceEdit` becomes one `FileChange`
 * per file (the document's current text before, the edits applied after), for review and apply.
 */
export const proposeRenameSymbol: ProposeHandler<'rename_symbol'> = async (input) => {
  if (input.new_name === input.symbol) throw new ProposalRefused(`"${input.symbol}" already has the name "${input.new_name}"; there is nothing to rename.`);
  const at = await findSymbol(input.path, input.line, input.symbol);
  if ('error' in at) throw new ProposalRefused(at.error);
  await typescriptProjectLoaded(at.document);
  const ask = async (): Promise<{ readonly edit: vscode.WorkspaceEdit | undefined } | { readonly error: string }> => {
    try {
      return { edit: await vscode.commands.executeCommand<vscode.WorkspaceEdit | undefined>('vscode.executeDocumentRenameProvider', at.document.uri, at.position, input.new_name) };
    } catch (err) {
      return { error: messageOf(err) };
    }
  };
  // "No result." is what the editor answers while no rename provider is registered yet (a language extension still activating).
  // An error the service means counts as an answer (size 1); a rename counts 1 + its text edits, so a fuller one supersedes a partial one.
  const size = (a: Awaited<ReturnType<typeof ask>>): number => {
    if ('error' in a) return /^No result/i.test(a.error) ? 0 : 1;
    const edits = a.edit?.entries().reduce((n, [, e]) => n + e.length, 0) ?? 0;
    return edits === 0 ? 0 : 1 + edits;
  };
  const { answer } = await askUntilAnswered(ask, size);
  const where = `"${input.symbol}" at ${positionText(at.label, at.position.line, at.position.character)}`;
  if ('error' in answer) throw new ProposalRefused(`The language service cannot rename ${where}: ${answer.error}`);
  if (answer.edit === undefined || answer.edit.size === 0) {
    throw new ProposalRefused(`The language service has no rename for ${where}: it found nothing to rename there, or no installed extension provides renames for this kind of file.`);
  }
  const changes = await changesOf(answer.edit, where);
  if (changes.length === 0) throw new ProposalRefused(`Renaming ${where} to "${input.new_name}" changes no file.`);
  const mustAsk = changes.map((c) => protectedChangeReason(c.path, c.before, c.after)).find((r) => r !== undefined) ?? null;
  return { changes, mustAsk };
};

type EditChange = Extract<FileChange, { kind: 'edit' }>;

/** The text edits of `edit` applied to each file's current text; refused when a file lies outside the workspace or in `.git`. */
async function changesOf(edit: vscode.WorkspaceEdit, where: string): Promise<EditChange[]> {
  const entries = edit.entries();
  const refused: string[] = [];
  for (const [uri] of entries) {
    if (uri.scheme !== 'file') {
      refused.push(`${uri.toString()} (not a file on disk)`);
      continue;
    }
    const resolved = await resolveToolPath(uri.fsPath).catch(() => undefined);
    if (resolved === undefined || !resolved.inside) refused.push(`${uri.fsPath} (outside the workspace)`);
    else if (isInGitFolder(uri.fsPath) || isInGitFolder(resolved.real)) refused.push(`${resolved.label} (in a .git folder)`);
  }
  if (refused.length > 0) throw new ProposalRefused(`Renaming ${where} would change files the editor tools do not write: ${refused.join(', ')}. Nothing was changed.`);
  const changes: EditChange[] = [];
  for (const [uri, edits] of entries) {
    const document = await vscode.workspace.openTextDocument(uri);
    const before = document.getText();
    const label = labelOf(uri.fsPath);
    const outcome = applyOffsetEdits(before, edits.map((e) => ({ start: document.offsetAt(e.range.start), end: document.offsetAt(e.range.end), text: e.newText })));
    if (!outcome.ok) throw new ProposalRefused(`The language service's rename of ${where} cannot be applied to ${label}: ${outcome.message}`);
    if (outcome.text !== before) changes.push({ kind: 'edit', path: uri.fsPath, label, before, after: outcome.text });
  }
  return changes.sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
}
