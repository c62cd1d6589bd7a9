/**
 * One file a tool call changed, as recorded in the conversation's stream: enough to show the
 * change as a diff and to undo it after a reload. `path` is the file system path the change was
 * made at; `label` is the workspace-relative path the user and the model read.
 */
export type FileChange =
  | { readonly kind: 'edit'; readonly path: string; readonly label: string; readonly before: string; readonly after: string }
  | { readonly kind: 'create'; readonly path: string; readonly label: string; readonly after: string }
  | { readonly kind: 'delete'; readonly path: string; readonly label: string; readonly before: string }
  /** Moved from `fromPath` to `path` with its text unchanged. */
  | { readonly kind: 'rename'; readonly path: string; readonly label: string; readonly fromPath: string; readonly fromLabel: string; readonly text: string };

export type FileChangeKind = FileChange['kind'];

/** A change as the approval card and the tool card list it: which file, what happens to it, and `+added −removed` lines. */
export interface ChangeSummary {
  readonly label: string;
  readonly kind: FileChangeKind;
  readonly added: number;
  readonly removed: number;
  /** For a rename: where the file was. */
  readonly fromLabel: string | null;
}

/** The text of the file before the change (null: it did not exist there). */
export function textBefore(change: FileChange): string | null {
  switch (change.kind) {
    case 'edit': case 'delete': return change.before;
    case 'create': return null;
    case 'rename': return change.text;
  }
}

/** The text of the file after the change (null: it no longer exists there). */
export function textAfter(change: FileChange): string | null {
  switch (change.kind) {
    case 'edit': case 'create': return change.after;
    case 'delete': return null;
    case 'rename': return change.text;
  }
}
