// Theme switching and text contrast for the UI tests (not a test file: the harness collects only *.ui.mjs).
import { chatWindow } from './helpers.mjs';

// Set through settings, not the theme picker: the picker falls through to a marketplace search.
export const THEMES = [['Default Light Modern', 'vs'], ['Default Dark Modern', 'vs-dark'], ['Default High Contrast', 'hc-black'], ['Default High Contrast Light', 'hc-light']];

/** The workbench's theme kind, from the class VS Code puts on its root element. */
export function workbenchKind(page) {
  return page.evaluate(() => ['hc-light', 'hc-black', 'vs-dark', 'vs'].find((k) => document.querySelector('.monaco-workbench')?.classList.contains(k)));
}

/**
 * Runs in the chat's window. `wanted` is a list of { selector, every }: `every: false` measures the
 * first element the selector finds; `every: true` measures every visible element inside each match
 * that holds text of its own (so a new token class or badge is checked without naming it here).
 * Contrast is WCAG 2's, of the text colour composited over every background behind it (a
 * translucent colour counts as what it shows, not as its opaque version), down to the side bar's,
 * which shows through where the chat paints none.
 */
function measureInChat(wanted) {
  const SRGB = /^color\(srgb\s+([\d.e-]+)\s+([\d.e-]+)\s+([\d.e-]+)(?:\s*\/\s*([\d.e-]+))?\)$/;
  const rgba = (css) => {
    const srgb = SRGB.exec(css.trim());
    if (srgb) return [Number(srgb[1]) * 255, Number(srgb[2]) * 255, Number(srgb[3]) * 255, srgb[4] === undefined ? 1 : Number(srgb[4])];
    const [r = 0, g = 0, b = 0, a = 1] = (css.match(/[\d.]+/g) ?? []).map(Number);
    return [r, g, b, a];
  };
  const hex = (css) => (css.trim().match(/^#([\da-f]{2})([\da-f]{2})([\da-f]{2})/i) ?? []).slice(1).map((h) => parseInt(h, 16));
  const over = ([r, g, b, a], [R, G, B]) => [r * a + R * (1 - a), g * a + G * (1 - a), b * a + B * (1 - a)];
  const channel = (v) => { const c = v / 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
  const luminance = ([r, g, b]) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  const sideBar = hex(window.getComputedStyle(document.documentElement).getPropertyValue('--vscode-sideBar-background'));
  const background = (el) => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const layer = rgba(window.getComputedStyle(e).backgroundColor);
      if (layer[3] === 0) continue;
      layers.push(layer);
      if (layer[3] === 1) break;
    }
    return layers.reduceRight((below, layer) => over(layer, below), sideBar);
  };
  const opacity = (el) => {
    let o = 1;
    for (let e = el; e; e = e.parentElement) o *= Number(window.getComputedStyle(e).opacity);
    return o;
  };
  const ownText = (el) => [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join('').trim();
  const visible = (el) => el.getClientRects().length > 0 && window.getComputedStyle(el).visibility === 'visible' && !el.closest(':disabled');
  const measure = (el, selector) => {
    const [r, g, b, a] = rgba(window.getComputedStyle(el).color);
    const behind = background(el);
    const color = over([r, g, b, a * opacity(el)], behind);
    const [fg, bg] = [luminance(color), luminance(behind)];
    const ratio = Math.floor(((Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05)) * 100) / 100;
    const name = `${el.tagName.toLowerCase()}${[...el.classList].map((c) => `.${c}`).join('')}`;
    return { selector, element: name, text: (ownText(el) || el.textContent || '').trim().slice(0, 24), ratio, color: color.map(Math.round).join(','), behind: behind.map(Math.round).join(',') };
  };
  const found = [];
  for (const { selector, every } of wanted) {
    if (!every) {
      const el = document.querySelector(selector);
      if (el) found.push(measure(el, selector));
      continue;
    }
    for (const root of document.querySelectorAll(selector)) {
      for (const el of [root, ...root.querySelectorAll('*')]) if (visible(el) && ownText(el) !== '') found.push(measure(el, selector));
    }
  }
  return found;
}

/**
 * Contrast of the chat's text against what is behind it, for the first element each selector finds
 * (those it finds none for are left out).
 */
export async function chatColours(page, selectors = ['.user-text', '.item.assistant p', '.card-title', 'textarea']) {
  return (await chatWindow(page)).evaluate(measureInChat, selectors.map((selector) => ({ selector, every: false })));
}

/** Contrast of every visible piece of text inside each element `containers` match, one entry per piece. */
export async function textContrast(page, containers) {
  return (await chatWindow(page)).evaluate(measureInChat, containers.map((selector) => ({ selector, every: true })));
}
