import type { JsonObject, OutputPart } from '../../src/protocol';
import { h } from '../dom';

/** Raster types a data: URL may carry; SVG is left out so no markup ever comes from a tool. */
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const MAX_SHOWN_CHARS = 20_000;

export function formatInput(input: JsonObject): string {
  try {
    return JSON.stringify(input, null, 2);
  } catch {
    return '(the input cannot be shown as JSON)';
  }
}

/** A <pre> whose content is set as text, cut for display (the model saw the full result). */
export function textBlock(text: string, cls = 'tool-text'): HTMLPreElement {
  const pre = h('pre', { class: cls });
  pre.textContent = text.length > MAX_SHOWN_CHARS ? `${text.slice(0, MAX_SHOWN_CHARS)}\n… ${text.length - MAX_SHOWN_CHARS} more characters not shown` : text;
  return pre;
}

/** `<scheme:…>`, as Quiver writes a resource (link) of a tool result, and bare web URLs. */
const LINK = /<([a-z][a-z0-9+.-]*:[^\s<>]+)>|\bhttps?:\/\/[^\s<>"')\]]*[^\s<>"')\].,;:!?]/gi;

/**
 * Tool output with its links as anchors: a click asks the host (see interceptLink), which opens
 * web links in the browser and reads a resource of a running server into an editor. The text
 * around them stays text nodes.
 */
function linkedTextBlock(text: string): HTMLPreElement {
  const pre = textBlock(text);
  const shown = pre.textContent ?? '';
  if (shown.search(LINK) < 0) return pre;
  pre.replaceChildren();
  let at = 0;
  for (const m of shown.matchAll(LINK)) {
    const href = m[1] ?? m[0];
    const start = (m.index ?? 0) + (m[1] === undefined ? 0 : 1);
    pre.append(shown.slice(at, start), h('a', { attrs: { href }, title: `Open ${href}` }, href));
    at = start + href.length;
  }
  pre.append(shown.slice(at));
  return pre;
}

export function renderOutput(parts: readonly OutputPart[]): HTMLElement {
  const box = h('div', { class: 'tool-output' });
  if (parts.length === 0) box.append(h('div', { class: 'muted' }, '(no output)'));
  for (const part of parts) {
    if (part.kind === 'text') {
      box.append(linkedTextBlock(part.text));
    } else if (IMAGE_TYPES.has(part.mimeType) && BASE64.test(part.data)) {
      const img = h('img', { class: 'tool-image', attrs: { alt: 'Tool output image' } });
      img.src = `data:${part.mimeType};base64,${part.data}`;
      box.append(img);
    } else {
      box.append(h('div', { class: 'muted' }, `(${part.mimeType} image not shown)`));
    }
  }
  return box;
}
