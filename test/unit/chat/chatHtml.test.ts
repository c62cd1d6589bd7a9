import assert from 'node:assert/strict';
import { buildChatHtml, chatCsp } from '../../../src/extension/chatHtml';

describe('chat webview HTML', () => {
  const parts = {
    cspSource: 'https://*.vscode-cdn.net',
    nonce: 'abc123+/=',
    scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview.js',
    styleUris: ['https://file+.vscode-resource.vscode-cdn.net/ext/dist/codicons/codicon.css', 'https://file+.vscode-resource.vscode-cdn.net/ext/media/chat.css'],
  };
  const html = buildChatHtml(parts);
  const csp = chatCsp(parts.cspSource, parts.nonce);
  const directives = new Map(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values]));

  it('denies by default and allows scripts only by nonce', () => {
    assert.deepEqual(directives.get('default-src'), ["'none'"]);
    assert.deepEqual(directives.get('script-src'), [`'nonce-${parts.nonce}'`]);
    assert.ok(!csp.includes('unsafe-inline') && !csp.includes('unsafe-eval'));
  });

  it('allows styles and fonts from the webview source, images also from data:', () => {
    assert.deepEqual(directives.get('style-src'), [parts.cspSource]);
    assert.deepEqual(directives.get('font-src'), [parts.cspSource]);
    assert.deepEqual(directives.get('img-src'), [parts.cspSource, 'data:']);
    assert.deepEqual(directives.get('base-uri'), ["'none'"]);
    assert.deepEqual(directives.get('form-action'), ["'none'"]);
  });

  it('puts the policy in the page and loads the one script with the nonce', () => {
    assert.ok(html.includes(`<meta http-equiv="Content-Security-Policy" content="${csp}">`));
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    assert.deepEqual(scripts, [`<script nonce="${parts.nonce}" src="${parts.scriptUri}">`]);
    for (const u of parts.styleUris) assert.ok(html.includes(`<link rel="stylesheet" href="${u}">`));
    assert.ok(!/\son[a-z]+=/i.test(html), 'no inline handlers');
    assert.ok(!/<style/i.test(html), 'no inline styles');
  });
});
