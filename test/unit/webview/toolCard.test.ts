import assert from 'node:assert/strict';
import type { HistoryItem } from '../../../src/protocol';
import { installBrowserGlobals, type BrowserGlobals } from './browserGlobals';

type ToolCardModule = typeof import('../../../webview/render/toolCard.js');
type ToolCall = Extract<HistoryItem, { kind: 'tool_call' }>;

const running = (progress?: { progress: number; total: number | null; message: string | null }): ToolCall => ({
  kind: 'tool_call',
  id: 'tu_1',
  name: 'fs__copy',
  input: { from: 'a' },
  outcome: progress === undefined ? { status: 'running' } : { status: 'running', progress },
});

describe('webview: a running tool card', () => {
  let globals: BrowserGlobals;
  let card: ToolCardModule;
  before(async () => {
    globals = installBrowserGlobals();
    card = await import('../../../webview/render/toolCard.js');
  });
  after(() => globals.remove());

  it('shows the progress its server last reported, with a percentage for a screen reader', () => {
    const note = card.renderToolCard(running({ progress: 3, total: 10, message: 'copying' }), null).querySelector('.tool-progress');
    assert.equal(note?.textContent, '3 of 10 · copying');
    assert.equal(note?.getAttribute('aria-label'), '30% done: copying');
    assert.equal(card.renderToolCard(running({ progress: 7, total: null, message: null }), null).querySelector('.tool-progress')?.textContent, '7');
    assert.equal(card.renderToolCard(running(), null).querySelector('.tool-progress'), null);
  });

  it('says when its server waits for the user\'s answer', () => {
    assert.match(card.renderToolCard(running(), null, true).querySelector('.state-asking')?.textContent ?? '', /Waiting for your answer/);
    assert.equal(card.renderToolCard(running(), null, false).querySelector('.state-asking'), null);
  });
});
