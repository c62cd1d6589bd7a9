/**
 * What the user attached to a message from the editor. Each attachment carries `text`, the
 * block the model reads exactly as it was first sent, so a reopened conversation sends the same
 * bytes; the other fields are for showing it as a chip and opening it again.
 */

/** Lines, 1-based and inclusive. */
export interface LineRange {
  readonly start: number;
  readonly end: number;
}

export type Attachment =
  | { readonly kind: 'selection'; readonly id: string; readonly uri: string; readonly path: string; readonly language: string; readonly range: LineRange; readonly text: string }
  /** `range` is the lines sent: all of them, or the head that was kept when the file was cut. */
  | { readonly kind: 'file'; readonly id: string; readonly uri: string; readonly path: string; readonly language: string; readonly range: LineRange; readonly text: string }
  /** The problems of one file (`uri` and `path` set) or of the whole workspace (both null). */
  | { readonly kind: 'problems'; readonly id: string; readonly uri: string | null; readonly path: string | null; readonly text: string }
  /** An MCP server's resource (`resources/read`), named by the server and its URI. */
  | { readonly kind: 'resource'; readonly id: string; readonly server: string; readonly uri: string; readonly name: string; readonly text: string };

export type AttachmentKind = Attachment['kind'];

/** An attachment as the chat shows it: a chip with a name, the path as its tooltip, and the lines. */
export interface AttachmentChip {
  readonly id: string;
  readonly kind: AttachmentKind;
  readonly label: string;
  readonly path: string;
  readonly range: LineRange | null;
}

export function chipOf(a: Attachment): AttachmentChip {
  if (a.kind === 'resource') return { id: a.id, kind: a.kind, label: a.name, path: `${a.server}: ${a.uri}`, range: null };
  if (a.kind === 'problems') return { id: a.id, kind: a.kind, label: a.path === null ? 'Problems (workspace)' : `Problems: ${baseName(a.path)}`, path: a.path ?? 'the workspace', range: null };
  return { id: a.id, kind: a.kind, label: baseName(a.path), path: a.path, range: a.range };
}

export function baseName(path: string): string {
  const parts = path.split(/[\\/]/);
  return parts[parts.length - 1] || path;
}
