import assert from 'node:assert/strict';
import type { UserItem } from '../../../src/protocol';
import { installBrowserGlobals, type BrowserGlobals } from './browserGlobals';

type UserMessageModule = typeof import('../../../webview/render/userMessage.js');

const failed = (cause?: string): UserItem => ({ kind: 'user', id: 'u1', text: 'hello', forced: null, attachments: [], status: 'failed', ...(cause !== undefined ? { cause } : {}) });

describe('webview: a message that was not sent says why', () => {
  let globals: BrowserGlobals;
  let render: UserMessageModule;
  before(async () => {
    globals = installBrowserGlobals();
    render = await import('../../../webview/render/userMessage.js');
  });
  after(() => globals.remove());

  const note = (item: UserItem): string => render.renderUserMessage(item, null).querySelector('.failed-note')?.textContent ?? '';

  it('by its cause: could not reach the URL, the API refused it, no API key', () => {
    assert.equal(note(failed('could not reach http://localhost:8080 (connection refused)')), 'Not sent: could not reach http://localhost:8080 (connection refused). It will not be sent with your next message.');
    assert.equal(note(failed('the API refused it (400 messages: roles must alternate)')), 'Not sent: the API refused it (400 messages: roles must alternate). It will not be sent with your next message.');
    assert.equal(note(failed('no API key')), 'Not sent: no API key. It will not be sent with your next message.');
  });

  it('a message from a conversation recorded before causes were claims no cause; a sent one has no note', () => {
    assert.equal(note(failed()), 'Not sent: the request failed. It will not be sent with your next message.');
    assert.equal(render.renderUserMessage({ ...failed(), status: 'sent' }, null).querySelector('.failed-note'), null);
  });
});
