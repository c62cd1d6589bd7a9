import assert from 'node:assert/strict';
import { installBrowserGlobals, type BrowserGlobals } from './browserGlobals';

type OutputModule = typeof import('../../../webview/render/output.js');

describe('webview: tool output links', () => {
  let globals: BrowserGlobals;
  let render: OutputModule;
  before(async () => {
    globals = installBrowserGlobals();
    render = await import('../../../webview/render/output.js');
  });
  after(() => globals.remove());

  const output = (text: string): HTMLElement => render.renderOutput([{ kind: 'text', text }]);

  it('makes a resource link and a web URL anchors, the text around them text', () => {
    const el = output('Resource link: guide <demo://resource/static/document/architecture.md> — see https://example.com/docs.');
    assert.deepEqual(Array.from(el.querySelectorAll('a')).map((a) => a.getAttribute('href')), ['demo://resource/static/document/architecture.md', 'https://example.com/docs'], 'the sentence\'s full stop is not part of the URL');
    assert.equal(el.textContent, 'Resource link: guide <demo://resource/static/document/architecture.md> — see https://example.com/docs.');
  });

  it('leaves markup in a result as text, links or not', () => {
    const el = output('<img src=x onerror=alert(1)> and <b>bold</b> https://example.com/?q=<b>');
    assert.equal(el.querySelector('img'), null);
    assert.equal(el.querySelector('b'), null);
    assert.deepEqual(Array.from(el.querySelectorAll('a')).map((a) => a.getAttribute('href')), ['https://example.com/?q=']);
  });

  it('a text without links is one text block, and so is one read twice (the pattern keeps no state)', () => {
    assert.equal(output('plain').querySelector('a'), null);
    assert.equal(output('<demo://a>').querySelectorAll('a').length, 1);
    assert.equal(output('<demo://a>').querySelectorAll('a').length, 1);
  });
});
