import { JSDOM } from 'jsdom';

/**
 * What the webview modules find as globals in the browser; set before they load, and put back as
 * they were by the returned function (Node has its own `Event`, which later test files and the
 * MCP SDK's event source need).
 */
const NAMES = ['window', 'document', 'Node', 'Element', 'HTMLElement', 'HTMLDetailsElement', 'MouseEvent', 'Event', 'acquireVsCodeApi'] as const;

export interface BrowserGlobals {
  readonly dom: JSDOM;
  /** Messages the webview posted to the host, in order. */
  readonly posted: unknown[];
  /** Elements scrollIntoView was called on, in order (jsdom lays nothing out). */
  readonly scrolledIntoView: Element[];
  remove(): void;
}

export function installBrowserGlobals(): BrowserGlobals {
  const dom = new JSDOM('<!DOCTYPE html><html><body></body></html>');
  const w = dom.window;
  const posted: unknown[] = [];
  const scrolledIntoView: Element[] = [];
  w.Element.prototype.scrollIntoView = function (this: Element): void {
    scrolledIntoView.push(this);
  };
  const api = { postMessage: (m: unknown): void => void posted.push(m), getState: (): unknown => undefined, setState: (): void => undefined };
  const before = new Map(NAMES.map((name) => [name, Object.getOwnPropertyDescriptor(globalThis, name)] as const));
  Object.assign(globalThis, {
    window: w,
    document: w.document,
    Node: w.Node,
    Element: w.Element,
    HTMLElement: w.HTMLElement,
    HTMLDetailsElement: w.HTMLDetailsElement,
    MouseEvent: w.MouseEvent,
    Event: w.Event,
    acquireVsCodeApi: () => api,
  });
  return {
    dom,
    posted,
    scrolledIntoView,
    remove: () => {
      for (const [name, descriptor] of before) {
        if (descriptor) Object.defineProperty(globalThis, name, descriptor);
        else Reflect.deleteProperty(globalThis, name);
      }
      w.close();
    },
  };
}

/** Gives `el` the scroll geometry jsdom leaves at 0: a fixed viewport height and a content height to change. */
export function fakeScroller(el: HTMLElement, clientHeight: number, scrollHeight: number): { setContent(h: number): void; setViewport(h: number): void } {
  let top = 0;
  let content = scrollHeight;
  let viewport = clientHeight;
  Object.defineProperty(el, 'scrollHeight', { get: () => content });
  Object.defineProperty(el, 'clientHeight', { get: () => viewport });
  // As a browser does: scrollTop stays within 0 and the content below the viewport.
  Object.defineProperty(el, 'scrollTop', { get: () => top, set: (v: number) => { top = Math.max(0, Math.min(v, content - viewport)); } });
  return {
    setContent: (h) => { content = h; },
    setViewport: (h) => { viewport = h; top = Math.min(top, Math.max(0, content - viewport)); },
  };
}
