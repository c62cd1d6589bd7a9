import { button, copyWithFeedback, h } from '../dom';
import type { WindowLike } from 'dompurify';
import { createMarkdownRenderer, type MarkdownRenderer } from './sanitize';

/** The renderer of the window it draws in (one for the webview's life; one per window in the unit tests, which load this module once). */
let made: { readonly win: WindowLike; readonly renderer: MarkdownRenderer } | undefined;
function rendererOf(win: WindowLike): MarkdownRenderer {
  if (made === undefined || made.win !== win) made = { win, renderer: createMarkdownRenderer(win) };
  return made.renderer;
}

/** Sanitized markdown, with a copy button on each code block. */
export function renderMarkdown(markdown: string): HTMLDivElement {
  const root = h('div', { class: 'markdown' });
  root.appendChild(rendererOf(window).render(markdown));
  for (const pre of Array.from(root.querySelectorAll('pre'))) {
    const code = pre.querySelector('code');
    const lang = /language-(\S+)/.exec(code?.className ?? '')?.[1] ?? '';
    const wrapper = h('div', { class: 'code-block' });
    const copy = button({ icon: 'copy', title: 'Copy code', class: 'code-copy', onClick: () => copyWithFeedback(copy, code?.textContent ?? pre.textContent ?? '') });
    const bar = h('div', { class: 'code-toolbar' }, h('span', { class: 'code-lang' }, lang), copy);
    pre.replaceWith(wrapper);
    wrapper.append(bar, pre);
  }
  return root;
}
