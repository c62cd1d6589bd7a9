/**
 * Markdown from the model → an inert DocumentFragment. Two layers, each sufficient alone for the
 * cases we know: markdown-it with `html: false` escapes raw HTML and refuses non-web link
 * schemes; DOMPurify then keeps only an allow-list of tags and attributes. Nothing here touches
 * the live document, so it runs in node under jsdom for the unit test.
 */
import DOMPurify from 'dompurify';
import type { Config, WindowLike } from 'dompurify';
import MarkdownIt from 'markdown-it';
import { highlightCode } from './highlight';

/** Links may only leave the webview to the web or a mail client; the host re-checks on open. */
export const SAFE_HREF = /^(?:https?:|mailto:)/i;

const ALLOWED_TAGS = [
  'p', 'br', 'hr', 'strong', 'em', 'b', 'i', 's', 'del', 'code', 'pre', 'blockquote',
  'ul', 'ol', 'li', 'a', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
  'table', 'thead', 'tbody', 'tr', 'th', 'td', 'span',
];
const ALLOWED_ATTR = ['href', 'title', 'class', 'start'];
const CODE_CLASS = /^language-[A-Za-z0-9_+#.-]{1,40}$/;
/**
 * The classes highlight.js puts on its token spans (`hljs-title function_`, and `language-css` for
 * an embedded language). Any other class on a span is dropped, so markup that got this far could
 * still not borrow the look of the chat's own controls.
 */
const TOKEN_CLASS = /^(?:hljs-[a-z_-]{1,30}(?: [a-z]{1,30}_{1,3}){0,3}|language-[a-z0-9]{1,30})$/;

const PURIFY_CONFIG = {
  ALLOWED_TAGS,
  ALLOWED_ATTR,
  ALLOWED_URI_REGEXP: SAFE_HREF,
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
  KEEP_CONTENT: true,
  RETURN_DOM_FRAGMENT: true,
} satisfies Config;

export interface MarkdownRenderer {
  /** Markdown → sanitized fragment, ready to append. */
  render(markdown: string): DocumentFragment;
  /** Raw HTML → sanitized fragment; the second layer on its own, exposed for tests. */
  sanitize(html: string): DocumentFragment;
}

function createMarkdownIt() {
  const md = new MarkdownIt({
    html: false,
    linkify: true,
    typographer: false,
    breaks: false,
    // '' leaves the block to markdown-it's own escaping; what it returns is sanitized like the rest.
    highlight: (code, lang) => highlightCode(code, lang) ?? '',
  });
  md.validateLink = (url: string): boolean => SAFE_HREF.test(url.trim());
  // Remote images could leak data by URL and the CSP blocks them anyway: show them as links.
  md.renderer.rules.image = (tokens, idx): string => {
    const token = tokens[idx];
    const src = String(token?.attrGet('src') ?? '');
    const alt = token?.content || src;
    const label = md.utils.escapeHtml(`image: ${alt}`);
    return SAFE_HREF.test(src) ? `<a href="${md.utils.escapeHtml(src)}">${label}</a>` : label;
  };
  return md;
}

export function createMarkdownRenderer(win: WindowLike): MarkdownRenderer {
  const purify = DOMPurify(win);
  purify.addHook('afterSanitizeAttributes', (el) => {
    const cls = el.getAttribute('class');
    if (cls !== null && !(el.tagName === 'CODE' && CODE_CLASS.test(cls)) && !(el.tagName === 'SPAN' && TOKEN_CLASS.test(cls))) el.removeAttribute('class');
    if (el.tagName === 'A') {
      const href = el.getAttribute('href');
      if (href === null || !SAFE_HREF.test(href.trim())) el.removeAttribute('href');
      else el.setAttribute('title', href);
    }
    if (el.hasAttribute('start') && el.tagName !== 'OL') el.removeAttribute('start');
  });
  const md = createMarkdownIt();
  const sanitize = (html: string): DocumentFragment => purify.sanitize(html, PURIFY_CONFIG);
  return {
    sanitize,
    render: (markdown) => sanitize(md.render(markdown)),
  };
}
