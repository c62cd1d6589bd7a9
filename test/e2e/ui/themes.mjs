// Theme switching and text contrast for the UI tests (not a test file: the harness collects only *.ui.mjs).
import { chatWindow } from './helpers.mjs';

// Set through settings, not the theme picker: the picker falls through to a marketplace search.
export const THEMES = [['Default Light Modern', 'vs'], ['Default Dark Modern', 'vs-dark'], ['Default High Contrast', 'hc-black'], ['Default High Contrast Light', 'hc-light']];

/** The workbench's theme kind, from the class VS Code puts on its root element. */
export function workbenchKind(page) {
  return page.evaluate(() => ['hc-light', 'hc-black', 'vs-dark', 'vs'].find((k) => document.querySelector('.monaco-workbench')?.classList.contains(k)));
}

/**
 * Contrast of the chat's text against what is behind it (WCAG 2 relative luminance), for the first
 * element each selector finds (those it finds none for are left out).
 */
export async function chatColours(page, selectors = ['.user-text', '.item.assistant p', '.card-title', 'textarea']) {
  const win = await chatWindow(page);
  return win.evaluate((wanted) => {
    const rgb = (css) => (css.match(/[\d.]+/g) ?? []).map(Number);
    const channel = (v) => { const c = v / 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    const luminance = ([r, g, b]) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    const hex = (css) => (css.trim().match(/^#([\da-f]{2})([\da-f]{2})([\da-f]{2})/i) ?? []).slice(1).map((h) => parseInt(h, 16));
    // Where the chat paints no background of its own, the side bar's shows through the webview.
    const background = (el) => {
      for (let e = el; e; e = e.parentElement) {
        const [r, g, b, a = 1] = rgb(window.getComputedStyle(e).backgroundColor);
        if (a > 0.5) return [r, g, b];
      }
      return hex(window.getComputedStyle(document.documentElement).getPropertyValue('--vscode-sideBar-background'));
    };
    const found = [];
    for (const selector of wanted) {
      const el = document.querySelector(selector);
      if (!el) continue;
      const color = rgb(window.getComputedStyle(el).color);
      const behind = background(el);
      const [fg, bg] = [luminance(color), luminance(behind)];
      found.push({ selector, ratio: Math.round(((Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05)) * 10) / 10, color: color.join(','), behind: behind.join(',') });
    }
    return found;
  }, selectors);
}
