import assert from 'node:assert/strict';
import {
  applyHostMessage,
  parseChatSnapshot,
  parseHostToWebview,
  parseWebviewToHost,
  type ChatSnapshot,
  type HostToWebview,
  type HostToWebviewType,
  type WebviewToHost,
  type WebviewToHostType,
} from '../../../src/protocol';

const usage = { input: 1200, output: 340, cacheRead: 1000, cacheWrite: 0 };

const snapshot: ChatSnapshot = {
  conversation: { id: 'c1', title: 'Read the README' },
  items: [
    { kind: 'user', id: 'e1', text: 'summarise README.md', forced: 'fs__read_file', attachments: [{ id: 'a1', kind: 'selection', label: 'main.ts', path: 'src/main.ts', range: { start: 3, end: 9 } }], status: 'sent' },
    { kind: 'thinking', id: 'e2.0', text: 'The user wants a **summary**; read the file first.', redacted: false },
    { kind: 'thinking', id: 'e2.1', text: '', redacted: true },
    { kind: 'assistant', id: 'e2.2', markdown: 'Let me look.' },
    { kind: 'tool_call', id: 'tu_1', name: 'fs__read_file', input: { path: 'README.md' }, outcome: { status: 'done', output: [{ kind: 'text', text: '# Quiver' }] } },
    { kind: 'tool_call', id: 'tu_2', name: 'fs__stat', input: {}, outcome: { status: 'error', output: [{ kind: 'image', mimeType: 'image/png', data: 'AAAA' }] } },
    { kind: 'tool_call', id: 'tu_3', name: 'fs__stat', input: {}, outcome: { status: 'cancelled' } },
    { kind: 'tool_call', id: 'tu_3b', name: 'fs__copy', input: {}, outcome: { status: 'stopped', output: [{ kind: 'text', text: 'The call was stopped by the user while it was running; it may have had effects.' }] } },
    { kind: 'search', id: 'tu_4', input: { query: 'issues' }, outcome: { status: 'done', found: [{ name: 'gh__issue', status: 'loaded', tokens: 120 }, { name: 'gh__x', status: 'unavailable', tokens: null }, { name: 'gh__issue_comments', status: 'not loaded', tokens: null }] } },
    { kind: 'search', id: 'tu_5', input: { query: '' }, outcome: { status: 'error', output: [{ kind: 'text', text: 'empty query' }] } },
    { kind: 'search', id: 'tu_6', input: { query: 'x' }, outcome: { status: 'running' } },
    { kind: 'turn_summary', id: 'e9', reason: 'max_cycles', message: 'stopped after 25', model: 'claude-sonnet-4-5', usage, changes: { files: [{ label: 'src/a.ts', kind: 'edit', added: 2, removed: 1, fromLabel: null }], undone: false } },
    { kind: 'turn_summary', id: 'e10', reason: 'done', message: null, model: null, usage: null, changes: null },
  ],
  model: 'claude-sonnet-4-5',
  busy: true,
  liveUsage: usage,
  apiKeySet: false,
  conversations: [{ id: 'c1', title: 'Read the README', updatedAt: '2025-01-01T00:00:00.000Z' }],
  pendingApprovals: [{ callId: 'tu_7', toolName: 'fs__write', input: { path: 'a', content: 'b' }, review: null }],
  pendingElicitations: [
    {
      promptId: 'tu_8#1',
      callId: 'tu_8',
      toolName: 'crm__add',
      server: 'crm',
      message: 'Who is it?',
      mode: 'form',
      fields: [
        { key: 'name', label: 'Name', required: true, kind: 'text' },
        { key: 'age', label: 'Age', required: false, kind: 'number', integer: true, default: 30, minimum: 0 },
        { key: 'color', label: 'Color', required: false, kind: 'choice', options: [{ value: 'g', label: 'Green' }], default: 'g' },
      ],
    },
  ],
  toolCompletions: [{ name: 'fs__read_file', detail: 'discoverable' }],
  promptCompletions: [{ name: 'github.review_pr', detail: 'Review a pull request' }],
  resourceCompletions: [{ name: 'docs:file:///guide.md', detail: 'Guide' }],
  attachments: [{ id: 'a2', kind: 'problems', label: 'Problems (workspace)', path: 'the workspace', range: null }],
};

/** One message per variant; the Record type makes a new variant without a sample a compile error. */
const hostSamples: Record<HostToWebviewType, HostToWebview> = {
  snapshot: { type: 'snapshot', state: snapshot },
  historyPatch: {
    type: 'historyPatch',
    items: { keep: 2, changed: [{ index: 1, item: { kind: 'tool_call', id: 'tu_1', name: 'fs__read_file', input: {}, outcome: { status: 'cancelled' } } }], tail: [{ kind: 'assistant', id: 'e3.0', markdown: 'Done.' }] },
    busy: false,
    liveUsage: null,
    conversation: { id: 'c1', title: 'Read the README' },
    pendingElicitations: [],
  },
  turnStarted: { type: 'turnStarted', user: { kind: 'user', id: 'e11', text: 'hi', forced: null, attachments: [], status: 'sent' } },
  textDelta: { type: 'textDelta', itemId: 'e12.0', text: 'Hel' },
  thinkingDelta: { type: 'thinkingDelta', itemId: 'live-1-1.1', text: 'I should read the file' },
  toolCallStarted: { type: 'toolCallStarted', callId: 'tu_8', name: 'search_tools', input: { query: 'git', limit: 5 }, card: 'search' },
  toolCallFinished: { type: 'toolCallFinished', callId: 'tu_1', outcome: { status: 'done', output: [{ kind: 'text', text: '[Result r2 …]' }], kept: { ref: 'r2', shownChars: 4_000, totalChars: 212_000 } } },
  searchFinished: { type: 'searchFinished', callId: 'tu_8', outcome: { status: 'done', found: [{ name: 'git__log', status: 'unloaded', tokens: 80 }] } },
  approvalRequest: { type: 'approvalRequest', request: { callId: 'tu_9', toolName: 'fs__write', input: { nested: { a: [1, 2, null] } }, review: null } },
  approvalSettled: { type: 'approvalSettled', callId: 'tu_9' },
  elicitationRequest: { type: 'elicitationRequest', prompt: { promptId: 'tu_9#2', callId: 'tu_9', toolName: 'pay__checkout', server: 'pay', message: 'Confirm the payment', mode: 'url', url: 'https://pay.example.com/confirm' } },
  elicitationSettled: { type: 'elicitationSettled', promptId: 'tu_9#2' },
  toolProgress: { type: 'toolProgress', callId: 'tu_9', progress: { progress: 3, total: 10, message: 'copying' } },
  usage: { type: 'usage', usage },
  turnFinished: { type: 'turnFinished', summary: { kind: 'turn_summary', id: 'e20', reason: 'error', message: '401 invalid x-api-key', model: 'm', usage: null, changes: null } },
  banner: { type: 'banner', severity: 'warning', message: 'A turn is already running.' },
  conversations: { type: 'conversations', list: [], current: { id: 'c2', title: 'New chat' } },
  toolCompletions: { type: 'toolCompletions', tools: [{ name: 'a', detail: 'on' }] },
  focusComposer: { type: 'focusComposer' },
  attachments: { type: 'attachments', list: [{ id: 'a3', kind: 'file', label: 'README.md', path: 'README.md', range: { start: 1, end: 40 } }] },
  fileCompletions: { type: 'fileCompletions', query: 'rdme', files: ['README.md', 'docs/README.md'] },
  restoreDraft: { type: 'restoreDraft', text: 'what does #file:missing.ts do?' },
};

const webviewSamples: Record<WebviewToHostType, WebviewToHost> = {
  ready: { type: 'ready' },
  sendMessage: { type: 'sendMessage', text: '/use fs__read_file what is in README.md?' },
  stop: { type: 'stop' },
  openConversation: { type: 'openConversation', id: 'c1' },
  renameConversation: { type: 'renameConversation', id: 'c1', title: 'Better title' },
  deleteConversation: { type: 'deleteConversation', id: 'c1' },
  approvalAnswer: { type: 'approvalAnswer', callId: 'tu_9', answer: 'deny', reason: 'use the other helper' },
  openChange: { type: 'openChange', callId: 'tu_9', index: 1 },
  undoChanges: { type: 'undoChanges', itemId: 'e12' },
  elicitationAnswer: { type: 'elicitationAnswer', promptId: 'tu_9#2', reply: { action: 'accept', content: { name: 'Ada', age: 36, subscribed: true, tags: ['a'] } } },
  regenerate: { type: 'regenerate' },
  retryMessage: { type: 'retryMessage', id: 'e7' },
  dropMessage: { type: 'dropMessage', id: 'e7' },
  setApiKey: { type: 'setApiKey' },
  openLink: { type: 'openLink', href: 'https://example.com' },
  removeAttachment: { type: 'removeAttachment', id: 'a3' },
  openAttachment: { type: 'openAttachment', id: 'a1' },
  completeFiles: { type: 'completeFiles', query: 'rdme' },
  unloadTool: { type: 'unloadTool', name: 'git__git_tag' },
  openResult: { type: 'openResult', ref: 'r2' },
};

const throughWire = (v: unknown): unknown => JSON.parse(JSON.stringify(v)) as unknown;

describe('protocol', () => {
  describe('every variant round-trips through JSON and validation', () => {
    for (const [type, msg] of Object.entries(hostSamples)) {
      it(`host → webview: ${type}`, () => {
        assert.deepEqual(parseHostToWebview(throughWire(msg)), { ok: true, value: msg });
      });
    }
    for (const [type, msg] of Object.entries(webviewSamples)) {
      it(`webview → host: ${type}`, () => {
        assert.deepEqual(parseWebviewToHost(throughWire(msg)), { ok: true, value: msg });
      });
    }
    it('the snapshot on its own (the render cache)', () => {
      assert.deepEqual(parseChatSnapshot(throughWire(snapshot)), { ok: true, value: snapshot });
    });
  });

  describe('malformed messages are rejected', () => {
    const badFromWebview: [string, unknown][] = [
      ['not an object', 'ready'],
      ['null', null],
      ['no type', { text: 'hi' }],
      ['unknown type', { type: 'runCommand', command: 'workbench.action.terminal.new' }],
      ['an extra field', { type: 'stop', force: true }],
      ['a missing field', { type: 'sendMessage' }],
      ['a wrong field type', { type: 'sendMessage', text: 42 }],
      ['an unknown approval answer', { type: 'approvalAnswer', callId: 'a', answer: 'allow_all', reason: '' }],
      ['an elicitation reply with an unknown action', { type: 'elicitationAnswer', promptId: 'a', reply: { action: 'maybe' } }],
      ['an elicitation answer with a nested object', { type: 'elicitationAnswer', promptId: 'a', reply: { action: 'accept', content: { name: { first: 'Ada' } } } }],
      ['an empty id', { type: 'openConversation', id: '' }],
      ['a blank title', { type: 'renameConversation', id: 'c', title: '   ' }],
      ['an oversized title', { type: 'renameConversation', id: 'c', title: 'x'.repeat(201) }],
      ['an oversized message', { type: 'sendMessage', text: 'x'.repeat(200_001) }],
      ['an empty href', { type: 'openLink', href: '' }],
      ['an Unload without a tool name', { type: 'unloadTool', name: '' }],
      ['a result reference that is a path', { type: 'openResult', ref: '../c-1-00000000.jsonl' }],
      ['a result reference that is not one', { type: 'openResult', ref: 'r0' }],
      ['an Unload naming a tool by something other than a string', { type: 'unloadTool', name: ['a', 'b'] }],
    ];
    for (const [what, raw] of badFromWebview) {
      it(`webview → host: ${what}`, () => {
        const r = parseWebviewToHost(raw);
        assert.equal(r.ok, false);
        if (!r.ok) assert.ok(r.error.length > 0);
      });
    }

    const badFromHost: [string, unknown][] = [
      ['a running outcome in toolCallFinished', { type: 'toolCallFinished', callId: 'a', outcome: { status: 'running' } }],
      ['a stopped outcome without what the model was told', { type: 'toolCallFinished', callId: 'a', outcome: { status: 'stopped' } }],
      ['an unknown found status', { type: 'searchFinished', callId: 'a', outcome: { status: 'done', found: [{ name: 'x', status: 'maybe', tokens: null }] } }],
      ['a found tool without its tokens', { type: 'searchFinished', callId: 'a', outcome: { status: 'done', found: [{ name: 'x', status: 'loaded' }] } }],
      ['a negative token estimate', { type: 'searchFinished', callId: 'a', outcome: { status: 'done', found: [{ name: 'x', status: 'loaded', tokens: -1 }] } }],
      ['negative usage', { type: 'usage', usage: { input: -1, output: 0, cacheRead: 0, cacheWrite: 0 } }],
      ['a thinking item without its redacted flag', { type: 'snapshot', state: { ...snapshot, items: [{ kind: 'thinking', id: 'x', text: 'hm' }] } }],
      ['a thinking delta without an item id', { type: 'thinkingDelta', itemId: '', text: 'hm' }],
      ['an unknown item kind in a snapshot', { type: 'snapshot', state: { ...snapshot, items: [{ kind: 'html', id: 'x', html: '<b>' }] } }],
      ['a snapshot missing a field', { type: 'snapshot', state: { ...snapshot, apiKeySet: undefined } }],
      ['a banner with an unknown severity', { type: 'banner', severity: 'fatal', message: 'x' }],
    ];
    for (const [what, raw] of badFromHost) {
      it(`host → webview: ${what}`, () => {
        assert.equal(parseHostToWebview(raw).ok, false);
      });
    }
  });

  describe('applyHostMessage', () => {
    const idle: ChatSnapshot = { ...snapshot, items: [], busy: false, liveUsage: null, pendingApprovals: [] };

    it('streams text into one assistant item, then starts a new one for a new id', () => {
      let s = applyHostMessage(idle, { type: 'turnStarted', user: { kind: 'user', id: 'u', text: 'hi', forced: null, attachments: [], status: 'sent' } });
      assert.equal(s.busy, true);
      assert.deepEqual(s.liveUsage, { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });
      s = applyHostMessage(s, { type: 'textDelta', itemId: 'a', text: 'Hel' });
      s = applyHostMessage(s, { type: 'textDelta', itemId: 'a', text: 'lo' });
      s = applyHostMessage(s, { type: 'toolCallStarted', callId: 't', name: 'x', input: {}, card: 'tool' });
      s = applyHostMessage(s, { type: 'textDelta', itemId: 'b', text: 'Done' });
      s = applyHostMessage(s, { type: 'textDelta', itemId: 'a', text: '!' });
      assert.deepEqual(
        s.items.map((i) => (i.kind === 'assistant' ? `${i.id}:${i.markdown}` : i.id)),
        ['u', 'a:Hello!', 't', 'b:Done'],
      );
    });

    it('streams thinking into its own item beside the text, and ignores thinking with no text', () => {
      let s = applyHostMessage(idle, { type: 'turnStarted', user: { kind: 'user', id: 'u', text: 'hi', forced: null, attachments: [], status: 'sent' } });
      s = applyHostMessage(s, { type: 'thinkingDelta', itemId: 'r.1', text: '' });
      assert.deepEqual(s.items.map((i) => i.id), ['u']);
      s = applyHostMessage(s, { type: 'thinkingDelta', itemId: 'r.1', text: 'Read the ' });
      s = applyHostMessage(s, { type: 'thinkingDelta', itemId: 'r.1', text: 'file first.' });
      const thought = s.items[1];
      s = applyHostMessage(s, { type: 'textDelta', itemId: 'r.2', text: 'Reading it.' });
      s = applyHostMessage(s, { type: 'thinkingDelta', itemId: 'r.2', text: 'not text' });
      assert.deepEqual(s.items.slice(1), [
        { kind: 'thinking', id: 'r.1', text: 'Read the file first.', redacted: false },
        { kind: 'assistant', id: 'r.2', markdown: 'Reading it.' },
      ]);
      assert.equal(s.items[1], thought, 'text after the thinking leaves the thinking item as it was');
      s = applyHostMessage(s, hostSamples.turnFinished);
      assert.deepEqual(s.items.map((i) => i.kind), ['user', 'thinking', 'assistant', 'turn_summary']);
    });

    it('keeps the identity of untouched items so the renderer can skip them', () => {
      const s1 = applyHostMessage(idle, { type: 'turnStarted', user: { kind: 'user', id: 'u', text: 'hi', forced: null, attachments: [], status: 'sent' } });
      const s2 = applyHostMessage(s1, { type: 'textDelta', itemId: 'a', text: 'x' });
      const s3 = applyHostMessage(s2, { type: 'textDelta', itemId: 'a', text: 'y' });
      assert.equal(s3.items[0], s1.items[0]);
      assert.notEqual(s3.items[1], s2.items[1]);
    });

    it('a history patch keeps the items it does not name (identity and all), replaces the ones it changes and puts its tail after the kept ones', () => {
      const user = { kind: 'user' as const, id: 'e1', text: 'hi', forced: null, attachments: [], status: 'sent' as const };
      let s = applyHostMessage(idle, { type: 'snapshot', state: { ...idle, items: [user, { kind: 'tool_call', id: 't', name: 'x', input: {}, outcome: { status: 'running' } }] } });
      s = applyHostMessage(s, { type: 'turnStarted', user: null });
      s = applyHostMessage(s, { type: 'approvalRequest', request: { callId: 't', toolName: 'x', input: {}, review: null } });
      s = applyHostMessage(s, { type: 'textDelta', itemId: 'live-1-1.1', text: 'Done' });
      const kept = s.items[0];
      const done = { kind: 'tool_call' as const, id: 't', name: 'x', input: {}, outcome: { status: 'done' as const, output: [] } };
      const busy = applyHostMessage(s, { type: 'historyPatch', items: { keep: 2, changed: [{ index: 1, item: done }], tail: [{ kind: 'assistant', id: 'e3.0', markdown: 'Done' }] }, busy: true, liveUsage: usage, conversation: { id: 'c1', title: 'hi' }, pendingElicitations: [] });
      assert.deepEqual(busy.items.map((i) => i.id), ['e1', 't', 'e3.0'], 'the live text gives way to the recorded reply');
      assert.equal(busy.items[0], kept);
      assert.deepEqual(busy.items[1], done);
      assert.deepEqual([busy.busy, busy.liveUsage, busy.pendingApprovals.length, busy.conversation.title], [true, usage, 1, 'hi']);
      const over = applyHostMessage(busy, { type: 'historyPatch', items: { keep: 3, changed: [], tail: [] }, busy: false, liveUsage: null, conversation: { id: 'c1', title: 'hi' }, pendingElicitations: [] });
      assert.equal(over.items[2], busy.items[2]);
      assert.deepEqual([over.busy, over.liveUsage, over.pendingApprovals], [false, null, []], 'approvals go with the turn');
      const moved = applyHostMessage(over, { type: 'historyPatch', items: { keep: 3, changed: [{ index: 0, item: { ...done, outcome: { status: 'cancelled' } } }], tail: [] }, busy: false, liveUsage: null, conversation: { id: 'c1', title: 'hi' }, pendingElicitations: [] });
      assert.deepEqual(moved.items[1], { ...done, outcome: { status: 'cancelled' } }, 'an index that no longer holds the item: its id decides');
      assert.equal(moved.items[0], kept);
    });

    it('finishes tool and search cards by call id, each only on its own kind', () => {
      let s = applyHostMessage(idle, { type: 'toolCallStarted', callId: 't', name: 'x', input: { a: 1 }, card: 'tool' });
      s = applyHostMessage(s, { type: 'toolCallStarted', callId: 's', name: 'search_tools', input: { query: 'q' }, card: 'search' });
      s = applyHostMessage(s, { type: 'searchFinished', callId: 't', outcome: { status: 'cancelled' } });
      assert.deepEqual(s.items[0], { kind: 'tool_call', id: 't', name: 'x', input: { a: 1 }, outcome: { status: 'running' } });
      s = applyHostMessage(s, { type: 'toolCallFinished', callId: 't', outcome: { status: 'error', output: [{ kind: 'text', text: 'boom' }] } });
      s = applyHostMessage(s, { type: 'searchFinished', callId: 's', outcome: { status: 'done', found: [{ name: 'y', status: 'loaded', tokens: 40 }] } });
      assert.deepEqual(s.items[0]?.kind === 'tool_call' && s.items[0].outcome, { status: 'error', output: [{ kind: 'text', text: 'boom' }] });
      assert.deepEqual(s.items[1]?.kind === 'search' && s.items[1].outcome.status, 'done');
    });

    it('shows a running call\'s latest progress, and a server\'s question until it is settled or the turn ends', () => {
      let s = applyHostMessage({ ...idle, pendingElicitations: [] }, { type: 'turnStarted', user: null });
      s = applyHostMessage(s, { type: 'toolCallStarted', callId: 'tu_9', name: 'pay__checkout', input: {}, card: 'tool' });
      s = applyHostMessage(s, hostSamples.toolProgress);
      assert.deepEqual(s.items[0]?.kind === 'tool_call' && s.items[0].outcome, { status: 'running', progress: { progress: 3, total: 10, message: 'copying' } });
      s = applyHostMessage(s, hostSamples.elicitationRequest);
      s = applyHostMessage(s, hostSamples.elicitationRequest);
      assert.deepEqual(s.pendingElicitations.map((p) => p.promptId), ['tu_9#2']);
      s = applyHostMessage(s, hostSamples.elicitationSettled);
      assert.deepEqual(s.pendingElicitations, []);
      s = applyHostMessage(s, hostSamples.elicitationRequest);
      s = applyHostMessage(s, hostSamples.turnFinished);
      assert.deepEqual(s.pendingElicitations, []);
      assert.deepEqual(s.items[0]?.kind === 'tool_call' && s.items[0].outcome, { status: 'cancelled' });
    });

    it('ends a turn: not busy, running calls cancelled, approvals cleared, summary appended', () => {
      let s = applyHostMessage(idle, { type: 'turnStarted', user: null });
      s = applyHostMessage(s, { type: 'toolCallStarted', callId: 't', name: 'x', input: {}, card: 'tool' });
      s = applyHostMessage(s, { type: 'approvalRequest', request: { callId: 't', toolName: 'x', input: {}, review: null } });
      s = applyHostMessage(s, { type: 'approvalRequest', request: { callId: 't', toolName: 'x', input: {}, review: null } });
      assert.equal(s.pendingApprovals.length, 1);
      s = applyHostMessage(s, { type: 'usage', usage });
      assert.deepEqual(s.liveUsage, usage);
      s = applyHostMessage(s, hostSamples.turnFinished);
      assert.equal(s.busy, false);
      assert.equal(s.liveUsage, null);
      assert.deepEqual(s.pendingApprovals, []);
      assert.deepEqual(s.items.map((i) => (i.kind === 'tool_call' ? i.outcome.status : i.kind)), ['cancelled', 'turn_summary']);
    });

    it('settles one approval, replaces the conversation list, leaves state alone for banners', () => {
      let s = applyHostMessage(idle, { type: 'approvalRequest', request: { callId: 'a', toolName: 'x', input: {}, review: null } });
      s = applyHostMessage(s, { type: 'approvalRequest', request: { callId: 'b', toolName: 'y', input: {}, review: null } });
      s = applyHostMessage(s, { type: 'approvalSettled', callId: 'a' });
      assert.deepEqual(s.pendingApprovals.map((a) => a.callId), ['b']);
      s = applyHostMessage(s, hostSamples.conversations);
      assert.deepEqual(s.conversation, { id: 'c2', title: 'New chat' });
      assert.equal(applyHostMessage(s, hostSamples.banner), s);
      assert.equal(applyHostMessage(s, hostSamples.snapshot), snapshot);
    });
  });
});
