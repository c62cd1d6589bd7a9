import assert from 'node:assert/strict';
import { openableHref } from '../../../src/core/text/safeLink';

describe('openableHref', () => {
  it('opens http, https and mailto links, normalized', () => {
    assert.equal(openableHref('https://example.com/a b'), 'https://example.com/a%20b');
    assert.equal(openableHref(' http://Example.com '), 'http://example.com/');
    assert.equal(openableHref('mailto:someone@example.com'), 'mailto:someone@example.com');
  });

  it('refuses every other scheme, relative links and credentials', () => {
    for (const href of [
      'javascript:alert(1)', 'JAVASCRIPT:alert(1)', 'command:workbench.action.terminal.new', 'vscode://file/etc/passwd',
      'file:///etc/passwd', 'data:text/html,<script>1</script>', 'vscode-webview://x/y', '/relative', '#top', 'not a url',
      'https://user:pass@example.com/', 'http://',
    ]) {
      assert.equal(openableHref(href), null, href);
    }
  });
});
