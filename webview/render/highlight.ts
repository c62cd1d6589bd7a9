/**
 * Syntax highlighting for fenced code blocks: highlight.js core with the languages a reply most
 * often holds, chosen for bundle size (this set adds 93 kB minified, 29 kB gzipped, to the webview
 * bundle; all of highlight.js would add 1.09 MB, its "common" set 165 kB).
 * Its output is HTML made only of escaped text and `<span class="hljs-…">`; it still goes through
 * the sanitizer with everything else (see sanitize.ts), so a highlighter bug cannot add markup.
 * Colours come from chat.css, mapped to VS Code theme variables, so highlighting follows the theme.
 */
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import dockerfile from 'highlight.js/lib/languages/dockerfile';
import go from 'highlight.js/lib/languages/go';
import ini from 'highlight.js/lib/languages/ini';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import plaintext from 'highlight.js/lib/languages/plaintext';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

const LANGUAGES = { bash, c, cpp, csharp, css, diff, dockerfile, go, ini, java, javascript, json, markdown, plaintext, python, rust, shell, sql, typescript, xml, yaml };
for (const [name, language] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, language);

/** Blocks longer than this are shown plain: highlighting them would hold up every streamed update. */
export const MAX_HIGHLIGHTED_CHARS = 100_000;

/**
 * `code` as highlighted HTML (text escaped, tokens in spans), or null when `lang` names no
 * language of the set (the block is then shown as plain text). No guessing from the content:
 * a wrong guess colours prose as code, and auto-detection tries every language on each update.
 */
export function highlightCode(code: string, lang: string): string | null {
  const name = lang.trim().toLowerCase();
  if (name === '' || code.length > MAX_HIGHLIGHTED_CHARS || hljs.getLanguage(name) === undefined) return null;
  try {
    return hljs.highlight(code, { language: name, ignoreIllegals: true }).value;
  } catch {
    return null; // a grammar that throws on odd input leaves the block plain rather than empty
  }
}
