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

describe('webview: a stopped tool card', () => {
  let globals: BrowserGlobals;
  let card: ToolCardModule;
  before(async () => {
    globals = installBrowserGlobals();
    card = await import('../../../webview/render/toolCard.js');
  });
  after(() => globals.remove());

  const ended = (outcome: ToolCall['outcome']): ToolCall => ({ kind: 'tool_call', id: 'tu_1', name: 'fs__copy', input: { from: 'a' }, outcome });

  it('a call stopped while running reads "Stopped while running" and shows what the model was told, never "Did not run"', () => {
    const el = card.renderToolCard(ended({ status: 'stopped', output: [{ kind: 'text', text: 'The call was stopped by the user while it was running; it may have had effects.' }] }), null);
    assert.equal(el.querySelector('.card-state')?.textContent, 'Stopped while running');
    assert.doesNotMatch(el.querySelector('.card-title')?.textContent ?? '', /Did not run/);
    assert.match(el.querySelector('.card-body')?.textContent ?? '', /Told the model[\s\S]*may have had effects/);
  });

  it('a call the turn ended before it started still reads "Did not run … Cancelled"', () => {
    const el = card.renderToolCard(ended({ status: 'cancelled' }), null);
    assert.equal(el.querySelector('.card-state')?.textContent, 'Cancelled');
    assert.match(el.querySelector('.card-title')?.textContent ?? '', /^Did not run fs__copy$/);
  });
});
