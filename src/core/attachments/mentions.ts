/**
 * `#` mentions typed in the composer, resolved by the host when the message is sent:
 * `#file:PATH` (or `#file:"PATH WITH SPACES"`), `#selection`, `#problems` (the active file's,
 * or the workspace's when no file is active) and `#problems:workspace`.
 */
export type Mention =
  | { readonly kind: 'file'; readonly path: string }
  | { readonly kind: 'selection' }
  | { readonly kind: 'problems'; readonly scope: 'active' | 'workspace' }
  /** `#resource:SERVER:URI`: a resource of an MCP server. */
  | { readonly kind: 'resource'; readonly server: string; readonly uri: string };

// A mention starts a word and ends at white space or trailing punctuation ("#selection?").
const MENTION = /(?<=^|\s)#(?:file:(?:"([^"\n]+)"|(\S+))|(selection)|(problems)(:workspace)?|resource:(?:"([^"\n]+)"|(\S+)))(?=$|\s|[.,;:!?)])/g;

/** The mentions of `text` in order, each once. */
export function parseMentions(text: string): Mention[] {
  const found: Mention[] = [];
  const seen = new Set<string>();
  for (const m of text.matchAll(MENTION)) {
    const mention = mentionOf(m.slice(1));
    if (!mention) continue;
    const key = JSON.stringify(mention);
    if (seen.has(key)) continue;
    seen.add(key);
    found.push(mention);
  }
  return found;
}

/** A mention from MENTION's capture groups, in order. */
function mentionOf(groups: readonly (string | undefined)[]): Mention | undefined {
  const [quoted, bare, selection, problems, workspace, quotedResource, bareResource] = groups;
  const resource = quotedResource ?? bareResource?.replace(/[.,;!?)]+$/, '');
  if (resource !== undefined) {
    const colon = resource.indexOf(':');
    return colon > 0 && colon < resource.length - 1 ? { kind: 'resource', server: resource.slice(0, colon), uri: resource.slice(colon + 1) } : undefined;
  }
  if (selection) return { kind: 'selection' };
  if (problems) return { kind: 'problems', scope: workspace ? 'workspace' : 'active' };
  const path = quoted ?? bare?.replace(/[.,;:!?)]+$/, '');
  return path ? { kind: 'file', path } : undefined;
}

/**
 * The text as sent: each resource mention gives way to the name of what it attached, in quotes
 * (the attachment's block names the server and the whole URI, so the text need not carry it
 * again); `nameOf` answers for a mention that attached something. Other mentions stay as typed.
 */
export function withResourceNames(text: string, nameOf: (server: string, uri: string) => string | undefined): string {
  return text.replace(MENTION, (whole: string, ...args: unknown[]) => {
    const groups = args.slice(0, 7).map((g) => (typeof g === 'string' ? g : undefined));
    const [, , , , , quotedResource, bareResource] = groups;
    const mention = mentionOf(groups);
    if (mention?.kind !== 'resource') return whole;
    const name = nameOf(mention.server, mention.uri);
    if (name === undefined) return whole;
    const rest = quotedResource === undefined ? (bareResource ?? '').slice(`${mention.server}:${mention.uri}`.length) : '';
    return `“${name}”${rest}`;
  });
}

/** How the composer writes a resource mention; one with white space or quotes is quoted. */
export function resourceMention(server: string, uri: string): string {
  const target = `${server}:${uri}`;
  return /[\s"]/.test(target) ? `#resource:"${target.replace(/"/g, '')}"` : `#resource:${target}`;
}

/** How the composer writes a file mention; paths with white space or quotes are quoted. */
export function fileMention(path: string): string {
  return /[\s"]/.test(path) ? `#file:"${path.replace(/"/g, '')}"` : `#file:${path}`;
}
