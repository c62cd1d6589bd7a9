/**
 * `#` mentions typed in the composer, resolved by the host when the message is sent:
 * `#file:PATH` (or `#file:"PATH WITH SPACES"`), `#selection`, `#problems` (the active file's,
 * or the workspace's when no file is active) and `#problems:workspace`.
 */
export type Mention =
  | { readonly kind: 'file'; readonly path: string }
  | { readonly kind: 'selection' }
  | { readonly kind: 'problems'; readonly scope: 'active' | 'workspace' };

// A mention starts a word and ends at white space or trailing punctuation ("#selection?").
const MENTION = /(?<=^|\s)#(?:file:(?:"([^"\n]+)"|(\S+))|(selection)|(problems)(:workspace)?)(?=$|\s|[.,;:!?)])/g;

/** The mentions of `text` in order, each once. */
export function parseMentions(text: string): Mention[] {
  const found: Mention[] = [];
  const seen = new Set<string>();
  for (const m of text.matchAll(MENTION)) {
    const mention = mentionOf(m);
    if (!mention) continue;
    const key = JSON.stringify(mention);
    if (seen.has(key)) continue;
    seen.add(key);
    found.push(mention);
  }
  return found;
}

function mentionOf(m: RegExpMatchArray): Mention | undefined {
  const [, quoted, bare, selection, problems, workspace] = m;
  if (selection) return { kind: 'selection' };
  if (problems) return { kind: 'problems', scope: workspace ? 'workspace' : 'active' };
  const path = quoted ?? bare?.replace(/[.,;:!?)]+$/, '');
  return path ? { kind: 'file', path } : undefined;
}

/** How the composer writes a file mention; paths with white space or quotes are quoted. */
export function fileMention(path: string): string {
  return /[\s"]/.test(path) ? `#file:"${path.replace(/"/g, '')}"` : `#file:${path}`;
}
