import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import type { DOMWindow } from 'jsdom';
import { MAX_HIGHLIGHTED_CHARS, highlightCode } from '../../../webview/render/highlight';
import { createMarkdownRenderer, type MarkdownRenderer } from '../../../webview/render/sanitize';

const fence = (lang: string, code: string): string => `\`\`\`${lang}\n${code}\n\`\`\``;

/** One sample per language of the set, with several kinds of token each. */
const SAMPLES: Record<string, string> = {
  ts: 'export class A<T> extends B { private n = 0x1f; @logged f(x: number): string { return `${x}`; } } // c',
  js: 'const re = /a+/g; function f() { return this.x ?? null; }',
  python: 'import re\n@dec\ndef f(x: int) -> str:\n    """Doc."""\n    return f"{x}"  # c',
  json: '{ "a": 1, "b": [true, null], "c": "s" }',
  bash: '#!/bin/bash\nexport A="$HOME/x" && echo $(ls) # c',
  shell: '$ npm test\n> ok',
  html: '<div class="a">&amp;<script>let x = 1;</script><style>a { color: red }</style></div>',
  css: '.a > #b:hover { color: #fff; margin: 0 !important; } @media (x) {}',
  diff: '--- a\n+++ b\n@@ -1 +1 @@\n- old\n+ new',
  yaml: 'a: 1\nb: "s" # c\nc: [true]',
  markdown: '# H\n*em* **b** `code` [l](https://x)\n- item',
  go: 'package main\nfunc f(x int) string { return "s" }',
  rust: 'fn f(x: u32) -> String { let s = "a"; s.to_string() } // c',
  java: '@Override public static void main(String[] a) { int n = 1; }',
  c: '#include <stdio.h>\nint main(void) { return 0; }',
  cpp: 'template<typename T> class A { public: virtual ~A() = default; };',
  csharp: 'public record P(int X) { public override string ToString() => $"{X}"; }',
  sql: 'SELECT a, COUNT(*) FROM t WHERE b = \'x\' GROUP BY a;',
  toml: '[server]\nport = 8080 # c\nname = "q"',
  dockerfile: 'FROM node:20\nRUN npm ci\nCMD ["node", "x.js"]',
};

describe('webview code highlighting', () => {
  let window: DOMWindow;
  let renderer: MarkdownRenderer;

  before(() => {
    window = new JSDOM('<!DOCTYPE html><html><body></body></html>').window;
    renderer = createMarkdownRenderer(window);
  });
  after(() => window.close());

  it('colours a fenced block of a known language with token spans, keeping its text exactly', () => {
    const source = 'const a = 1 < 2; // compare';
    const code = renderer.render(fence('ts', source)).querySelector('pre > code');
    assert.equal(code?.getAttribute('class'), 'language-ts');
    assert.equal(code?.textContent, `${source}\n`);
    const classes = Array.from(code?.querySelectorAll('span') ?? []).map((s) => s.getAttribute('class'));
    assert.ok(classes.includes('hljs-keyword'), `no keyword span in ${JSON.stringify(classes)}`);
    assert.ok(classes.includes('hljs-comment'), `no comment span in ${JSON.stringify(classes)}`);
    assert.ok(classes.includes('hljs-number'), `no number span in ${JSON.stringify(classes)}`);
  });

  it('keeps every token class highlight.js gives the languages of the set through the sanitizer', () => {
    for (const [lang, source] of Object.entries(SAMPLES)) {
      const raw = highlightCode(source, lang);
      assert.ok(raw !== null, `${lang} is not in the set`);
      const expected = (raw.match(/<span class="[^"]*">/g) ?? []).length;
      assert.ok(expected >= 3, `${lang}: only ${expected} tokens in ${raw}`);
      const code = renderer.render(fence(lang, source)).querySelector('pre > code');
      const kept = Array.from(code?.querySelectorAll('span[class]') ?? []).length;
      assert.equal(kept, expected, `${lang}: the sanitizer dropped token classes of ${raw}`);
      assert.equal(code?.textContent, `${source}\n`, `${lang}: the text changed`);
    }
  });

  it('shows a block of an unknown language, or of none, as plain text without guessing', () => {
    for (const md of [fence('klingon', 'qapla\' = 1'), fence('', 'const a = 1;')]) {
      const code = renderer.render(md).querySelector('pre > code');
      assert.equal(code?.querySelector('span'), null, md);
      assert.match(code?.textContent ?? '', /= 1/);
    }
    assert.equal(highlightCode('const a = 1;', 'klingon'), null);
    assert.equal(highlightCode('const a = 1;', ''), null);
  });

  it('takes language names as a reply writes them: aliases and any case', () => {
    for (const lang of ['TS', 'typescript', 'JS', 'py', 'sh', 'zsh', 'yml', 'html', 'c++', 'cs', 'rs', 'golang', 'patch', 'toml', 'md', 'jsonc', 'console']) {
      assert.notEqual(highlightCode('a = "b" # c', lang), null, lang);
    }
  });

  it('leaves a block past the size limit plain, so a huge paste cannot stall every streamed update', () => {
    assert.equal(highlightCode('x'.repeat(MAX_HIGHLIGHTED_CHARS + 1), 'ts'), null);
    assert.notEqual(highlightCode('x'.repeat(1000), 'ts'), null);
  });

  const hostileCode = [
    fence('html', '<img src=x onerror="alert(1)"><script>alert(1)</script>'),
    fence('js', '</code></pre><script>alert(1)</script><pre><code>'),
    fence('markdown', '[x](javascript:alert(1)) <iframe src="https://evil.example"></iframe>'),
    fence('xml', '<svg onload=alert(1)><a href="javascript:alert(1)">x</a></svg>'),
    fence('ts" onmouseover="alert(1)', 'let a = 1;'),
    fence('css', '</style><style>body{background:url(https://evil.example/leak)}</style>'),
  ];
  for (const md of hostileCode) {
    it(`keeps highlighted markup in a code block as text: ${md.split('\n')[0]} …`, () => {
      const f = renderer.render(md);
      const tags = Array.from(f.querySelectorAll('*')).map((el) => el.tagName.toLowerCase());
      for (const tag of tags) assert.ok(['pre', 'code', 'span', 'p'].includes(tag), `unexpected <${tag}>`);
      for (const el of Array.from(f.querySelectorAll('*'))) {
        for (const attr of Array.from(el.attributes)) assert.equal(attr.name, 'class', `attribute ${attr.name} on <${el.tagName.toLowerCase()}>`);
      }
      const body = md.split('\n').slice(1, -1).join('\n');
      const code = f.querySelector('pre > code');
      if (code) assert.equal(code.textContent, `${body}\n`);
    });
  }

  it('drops span classes that are not highlight.js tokens, so markup cannot borrow the chat\'s own look', () => {
    const f = renderer.sanitize('<span class="approval">a</span><span class="hljs-keyword approval">b</span><span class="hljs-title function_">c</span><span class="language-css">d</span><p class="hljs-keyword">e</p>');
    const classes = Array.from(f.querySelectorAll('span, p')).map((el) => el.getAttribute('class'));
    assert.deepEqual(classes, [null, null, 'hljs-title function_', 'language-css', null]);
  });
});
