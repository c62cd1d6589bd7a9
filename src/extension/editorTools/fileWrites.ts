import { applyStringEdits, isInGitFolder, protectedChangeReason, type FileChange } from '../../core/edits';
import type { Proposal, ProposeHandler } from './handler';
import { ProposalRefused } from './handler';
import { exists, readWorkspaceText } from './workspaceText';
import { resolveToolPath, type ResolvedPath } from './workspacePaths';

/** A path a tool may write: never in `.git/`. */
async function writablePath(written: string): Promise<ResolvedPath> {
  const file = await resolveToolPath(written);
  if (isInGitFolder(file.real)) throw new ProposalRefused(`${file.label} is inside a .git folder, which Quiver never writes. Use git through run_command if the user asks for it.`);
  return file;
}

/**
 * Why these changes ask the user whatever the tool's run policy: a file outside the workspace, or
 * a change to Quiver's own settings (so a model never widens its own permissions); null when the
 * policy decides.
 */
export function mustAskFor(changes: readonly FileChange[], outside: readonly ResolvedPath[]): string | null {
  const away = outside.find((f) => !f.inside);
  if (away) return `it writes ${away.real}, outside the workspace folders`;
  for (const change of changes) {
    const before = change.kind === 'edit' || change.kind === 'delete' ? change.before : null;
    const after = change.kind === 'edit' || change.kind === 'create' ? change.after : null;
    const reason = protectedChangeReason(change.path, before, after);
    if (reason !== undefined) return reason;
  }
  return null;
}

function proposal(changes: readonly FileChange[], paths: readonly ResolvedPath[]): Proposal {
  return { changes, mustAsk: mustAskFor(changes, paths) };
}

export const proposeEdit: ProposeHandler<'edit_file'> = async (input) => {
  const file = await writablePath(input.path);
  const { text } = await readWorkspaceText(file);
  const outcome = applyStringEdits(text, input.edits.map((e) => ({ oldString: e.old_string, newString: e.new_string, replaceAll: e.replace_all ?? false })), file.label);
  if (!outcome.ok) throw new ProposalRefused(`Nothing was changed: ${outcome.message}`);
  return proposal([{ kind: 'edit', path: file.uri.fsPath, label: file.label, before: text, after: outcome.text }], [file]);
};

export const proposeCreate: ProposeHandler<'create_file'> = async (input) => {
  const file = await writablePath(input.path);
  if (await exists(file.uri)) {
    if (input.overwrite !== true) throw new ProposalRefused(`${file.label} already exists. Change it with edit_file, or set "overwrite": true to replace all of it.`);
    const { text } = await readWorkspaceText(file);
    return proposal([{ kind: 'edit', path: file.uri.fsPath, label: file.label, before: text, after: input.content }], [file]);
  }
  return proposal([{ kind: 'create', path: file.uri.fsPath, label: file.label, after: input.content }], [file]);
};

export const proposeRenameFile: ProposeHandler<'rename_file'> = async (input) => {
  const from = await writablePath(input.path);
  const to = await writablePath(input.new_path);
  if (!(await exists(from.uri))) throw new ProposalRefused(`${from.label} does not exist. Find the right path with find_files.`);
  if (await exists(to.uri)) throw new ProposalRefused(`${to.label} already exists; Quiver does not replace a file by moving another onto it.`);
  return proposal([{ kind: 'rename', path: to.uri.fsPath, label: to.label, fromPath: from.uri.fsPath, fromLabel: from.label, text: '' }], [from, to]);
};

export const proposeDelete: ProposeHandler<'delete_file'> = async (input) => {
  const file = await writablePath(input.path);
  // Its text is the checkpoint Undo restores; a binary file has none, so it is refused.
  const { text } = await readWorkspaceText(file);
  return proposal([{ kind: 'delete', path: file.uri.fsPath, label: file.label, before: text }], [file]);
};
