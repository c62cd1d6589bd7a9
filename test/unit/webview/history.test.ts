import assert from 'node:assert/strict';
import type { ChatSnapshot } from '../../../src/protocol';
import { installBrowserGlobals, type BrowserGlobals } from './browserGlobals';
import { idleSnapshot } from './snapshots';

type HistoryModule = typeof import('../../../webview/history.js');

const snapshot: ChatSnapshot = idleSnapshot({
  conversation: { id: 'c2', title: 'Release plan' },
  conversations: [
    { id: 'c2', title: 'Release plan', updatedAt: '2026-11-30T11:00:00.000Z' },
    { id: 'c1', title: 'Fix the build', updatedAt: '2026-11-30T10:00:00.000Z' },
  ],
});

describe('webview: the history list', () => {
  let globals: BrowserGlobals;
  let history: HistoryModule;
  before(async () => {
    globals = installBrowserGlobals();
    history = await import('../../../webview/history.js');
  });
  after(() => globals.remove());

  it('names the chat in each row\'s Rename and Delete buttons, in the order the host sent', () => {
    const panel = new history.HistoryPanel(() => undefined);
    document.body.append(panel.el);
    panel.toggle(true);
    panel.render(snapshot);
    const labels = Array.from(panel.el.querySelectorAll('.history-actions button')).map((b) => b.getAttribute('aria-label'));
    assert.deepEqual(labels, ["Rename chat 'Release plan'", "Delete chat 'Release plan'", "Rename chat 'Fix the build'", "Delete chat 'Fix the build'"]);
  });

  it('the rename box names the chat it renames, and Enter sends the new title', () => {
    const panel = new history.HistoryPanel(() => undefined);
    document.body.append(panel.el);
    panel.toggle(true);
    panel.render(snapshot);
    const rename = panel.el.querySelector<HTMLButtonElement>("button[aria-label=\"Rename chat 'Fix the build'\"]");
    rename?.click();
    const input = panel.el.querySelector('input.rename-input');
    assert.ok(input instanceof globals.dom.window.HTMLInputElement);
    assert.equal(input.getAttribute('aria-label'), "New title for chat 'Fix the build'");
    input.value = 'Build fixed';
    globals.posted.length = 0;
    input.dispatchEvent(new globals.dom.window.KeyboardEvent('keydown', { key: 'Enter' }));
    assert.deepEqual(globals.posted, [{ type: 'renameConversation', id: 'c1', title: 'Build fixed' }]);
  });
});
