import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import type { DOMWindow } from 'jsdom';
import { createMarkdownRenderer, type MarkdownRenderer } from '../../../webview/render/sanitize';

/** Everything a hostile fragment could use to run code or navigate. */
function assertInert(fragment: DocumentFragment): void {
  const all = Array.from(fragment.querySelectorAll('*'));
  for (const el of all) {
    const tag = el.tagName.toLowerCase();
    assert.ok(!['script', 'iframe', 'img', 'object', 'embed', 'style', 'form', 'svg', 'math', 'link', 'meta', 'base'].includes(tag), `unexpected <${tag}>`);
    for (const attr of Array.from(el.attributes)) {
      assert.ok(!attr.name.toLowerCase().startsWith('on'), `event handler ${attr.name} on <${tag}>`);
      assert.ok(!['style', 'src', 'srcdoc', 'formaction', 'target'].includes(attr.name.toLowerCase()), `attribute ${attr.name} on <${tag}>`);
    }
    const href = el.getAttribute('href');
    if (href !== null) assert.match(href, /^(https?:|mailto:)/i, `href ${href}`);
  }
}

describe('webview markdown sanitizer', () => {
  let window: DOMWindow;
  let renderer: MarkdownRenderer;
  const html = (f: DocumentFragment): string => {
    const div = window.document.createElement('div');
    div.appendChild(f);
    return div.innerHTML;
  };

  before(() => {
    window = new JSDOM('<!DOCTYPE html><html><body></body></html>').window;
    renderer = createMarkdownRenderer(window);
  });
  after(() => window.close());

  const hostile = [
    '<img src=x onerror="alert(1)">',
    '<script>alert(1)</script>',
    '[click](javascript:alert(1))',
    '[click](JaVaScRiPt:alert(1))',
    '[click](  javascript:alert(1))',
    '<iframe src="https://evil.example"></iframe>',
    '![x](javascript:alert(1))',
    '![x](https://evil.example/leak?secret=1)',
    '<a href="javascript:alert(1)">x</a>',
    '[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
    '<svg onload=alert(1)>',
  ];

  for (const md of hostile) {
    it(`renders inert: ${md}`, () => {
      const f = renderer.render(md);
      assertInert(f);
    });
  }

  it('shows raw HTML in markdown as text rather than dropping it', () => {
    const f = renderer.render('<script>alert(1)</script>');
    assert.equal(f.querySelector('script'), null);
    assert.match(f.textContent ?? '', /<script>alert\(1\)<\/script>/);
  });

  it('keeps https and mailto links, titled with their target', () => {
    const f = renderer.render('[docs](https://example.com/a?b=1) and [mail](mailto:a@example.com) and https://auto.example');
    const links = Array.from(f.querySelectorAll('a')).map((a) => a.getAttribute('href'));
    assert.deepEqual(links, ['https://example.com/a?b=1', 'mailto:a@example.com', 'https://auto.example']);
    assert.equal(f.querySelector('a')?.getAttribute('title'), 'https://example.com/a?b=1');
  });

  it('turns images into links instead of loading them', () => {
    const f = renderer.render('![diagram](https://example.com/d.png)');
    assert.equal(f.querySelector('img'), null);
    assert.equal(f.querySelector('a')?.getAttribute('href'), 'https://example.com/d.png');
    assert.match(f.textContent ?? '', /image: diagram/);
  });

  it('keeps code blocks with a language class and nothing else', () => {
    const f = renderer.render('```ts\nconst a = 1 < 2;\n```');
    const code = f.querySelector('pre > code');
    assert.equal(code?.getAttribute('class'), 'language-ts');
    assert.equal(code?.textContent, 'const a = 1 < 2;\n');
  });

  describe('the DOMPurify layer alone (raw HTML input)', () => {
    const raw = [
      '<img src=x onerror=alert(1)>',
      '<script>alert(1)</script><p>ok</p>',
      '<a href="javascript:alert(1)" onclick="alert(1)">x</a>',
      '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
      '<p style="background:url(https://evil.example)" class="x">styled</p>',
      '<form action="https://evil.example"><button formaction="javascript:alert(1)">b</button></form>',
      '<math><mi xlink:href="javascript:alert(1)">x</mi></math>',
      '<a href="https://ok.example" target="_blank">ok</a>',
      '<code class="language-js onload">x</code>',
    ];
    for (const input of raw) {
      it(`strips: ${input}`, () => {
        assertInert(renderer.sanitize(input));
      });
    }

    it('keeps the text content of removed wrappers but not of scripts', () => {
      const out = html(renderer.sanitize('<p>keep <b>bold</b></p><script>drop()</script><div>kept</div>'));
      assert.equal(out, '<p>keep <b>bold</b></p>kept');
    });

    it('drops an unsafe class on code', () => {
      const f = renderer.sanitize('<code class="language-js onload">x</code><p class="evil">y</p>');
      assert.equal(f.querySelector('code')?.hasAttribute('class'), false);
      assert.equal(f.querySelector('p')?.hasAttribute('class'), false);
    });
  });
});
