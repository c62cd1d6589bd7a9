import assert from 'node:assert/strict';
import type { StreamEvent } from '../../../src/core/stream/events';
import { transcriptOf } from '../../../src/core/stream/transcript';
import type { ToolDefinition } from '../../../src/core/tools/definitions';
import { loadedDefinitions, wireEventsFor } from '../../../src/core/wire/wireChanges';
import { wireStateOf } from '../../../src/core/wire/wireState';

const at = '2026-12-01T00:00:00.000Z';
const tool = (name: string): ToolDefinition => ({ name, server: name.includes('__') ? name.split('__')[0] : undefined, toolName: name, description: name, inputSchema: { type: 'object' } });
const user = (text: string): StreamEvent => ({ type: 'user_message', text, at });
const search = (id: string, found: [string, 'usable' | 'found, unavailable'][]): StreamEvent[] => [
  { type: 'assistant_message', content: [{ type: 'tool_use', id, name: 'search_tools', input: { query: 'q' } }], stopReason: 'tool_use', at },
  { type: 'tool_result', toolUseId: id, name: 'search_tools', content: [{ type: 'text', text: '{}' }], isError: false, found: found.map(([name, status]) => ({ name, status })), at },
];
const ALL = ['search_tools', 'gh__a', 'gh__b', 'gh__c', 'fs__read'];
const listed = new Set(ALL);

/** Appends what wireEventsFor asks for, as the turn loop does before a request. */
function step(events: StreamEvent[], desired: string[], options: { forcedNow?: string; systemPrompt?: string; listed?: ReadonlySet<string> } = {}): StreamEvent[] {
  const appended = wireEventsFor({ events, messages: transcriptOf(events), desired: desired.map(tool), forcedNow: options.forcedNow, listed: options.listed ?? listed, systemPrompt: options.systemPrompt ?? 'sys', at });
  events.push(...appended);
  return appended;
}

/** Records a search result with its definitions, as runCycle does after the fold. */
function searched(events: StreamEvent[], id: string, found: [string, 'usable' | 'found, unavailable'][]): void {
  const results = search(id, found);
  events.push(...results, ...loadedDefinitions(results, wireStateOf(events, []).definitions, ALL.map(tool), at));
}

describe('wire changes: what a request appends so nothing sent before changes', () => {
  it('the first request records the system prompt and the tools array; a second request with nothing new appends nothing', () => {
    const events: StreamEvent[] = [user('hi')];
    assert.deepEqual(step(events, ['search_tools', 'fs__read']).map((e) => e.type), ['wire_system', 'wire_tools']);
    assert.deepEqual(step(events, ['search_tools', 'fs__read']), []);
    const wire = wireStateOf(events, transcriptOf(events));
    assert.deepEqual(wire.upFront.map((t) => t.name), ['search_tools', 'fs__read']);
    assert.deepEqual([...wire.offered], ['search_tools', 'fs__read']);
  });

  it('a search loads its usable matches where it was first recorded; a later search reporting them again loads nothing', () => {
    const events: StreamEvent[] = [user('hi')];
    step(events, ['search_tools']);
    searched(events, 's1', [['gh__a', 'usable'], ['gh__b', 'found, unavailable']]);
    assert.deepEqual(step(events, ['search_tools', 'gh__a']), [], 'a promotion by search needs no change');
    searched(events, 's2', [['gh__a', 'usable'], ['gh__c', 'usable']]);
    step(events, ['search_tools', 'gh__a', 'gh__c']);
    const wire = wireStateOf(events, transcriptOf(events));
    assert.deepEqual(wire.discoveries, [{ toolUseId: 's1', tools: ['gh__a'] }, { toolUseId: 's2', tools: ['gh__c'] }]);
    assert.deepEqual(wire.deferred.map((t) => t.name), ['gh__a', 'gh__c']);
  });

  it('a tool turned off is removed by an appended change and one turned on is added, its definition recorded as deferred', () => {
    const events: StreamEvent[] = [user('hi')];
    step(events, ['search_tools', 'fs__read']);
    const changes = step(events, ['search_tools', 'gh__b']);
    assert.deepEqual(changes.map((e) => (e.type === 'wire_change' ? `${e.cause} +${e.added.join(',')} -${e.removed.join(',')}` : `${e.type}`)), ['wire_tools', 'settings + -fs__read', 'settings +gh__b -']);
    assert.deepEqual(wireStateOf(events, transcriptOf(events)).upFront.map((t) => t.name), ['search_tools', 'fs__read'], 'the tools array as first sent');
  });

  it('/use adds the tool for its turn with a request to use it, and the next turn withdraws it', () => {
    const events: StreamEvent[] = [user('use it')];
    const first = step(events, ['search_tools', 'gh__c'], { forcedNow: 'gh__c' });
    const use = first.find((e) => e.type === 'wire_change');
    assert.ok(use?.type === 'wire_change' && use.cause === 'use' && use.added[0] === 'gh__c' && /\/use gh__c/.test(use.text));
    assert.deepEqual(wireStateOf(events, []).upFront.map((t) => t.name), ['search_tools'], 'the forced tool is not up front');
    assert.deepEqual(step(events, ['search_tools', 'gh__c']), [], 'the same turn keeps it');
    events.push(user('next'));
    const after = step(events, ['search_tools']);
    assert.ok(after[0]?.type === 'wire_change' && after[0].cause === 'use_done' && after[0].removed[0] === 'gh__c');
  });

  it('/use of the only tool the first request offers: it goes up front (never a tools array of deferred tools alone), and the next turn withdraws it as /use done', () => {
    const events: StreamEvent[] = [{ type: 'user_message', text: 'use it', forced: 'gh__c', at }];
    const first = step(events, ['gh__c'], { forcedNow: 'gh__c' });
    assert.deepEqual(first.map((e) => (e.type === 'wire_change' ? `${e.cause} +${e.added.join(',')}` : e.type === 'wire_tools' ? `${e.type} ${e.placement}` : e.type)), ['wire_system', 'wire_tools upFront', 'use +']);
    const wire = wireStateOf(events, []);
    assert.deepEqual(wire.upFront.map((t) => t.name), ['gh__c']);
    assert.deepEqual(wire.deferred, []);
    assert.deepEqual([...wire.addedForUse], ['gh__c']);
    events.push(user('next'));
    const after = step(events, []);
    assert.deepEqual(after.map((e) => (e.type === 'wire_change' ? `${e.cause} -${e.removed.join(',')}` : e.type)), ['use_done -gh__c']);
    assert.deepEqual(wireStateOf(events, []).upFront.map((t) => t.name), ['gh__c'], 'the tools array as first sent');
  });

  it('a first request that offers nothing records an empty tools array, which stays empty when tools come later', () => {
    const events: StreamEvent[] = [user('hi')];
    assert.deepEqual(step(events, []).map((e) => e.type), ['wire_system', 'wire_tools']);
    events.push(user('now'));
    const later = step(events, ['gh__a']);
    assert.deepEqual(later.map((e) => (e.type === 'wire_tools' ? `${e.type} ${e.placement}` : e.type)), ['wire_tools deferred', 'wire_change']);
    const wire = wireStateOf([...events, { type: 'wire_tools', placement: 'upFront', tools: [{ name: 'gh__b', description: '', inputSchema: { type: 'object' } }], at }], []);
    assert.deepEqual(wire.upFront, [], 'only the first request sets the tools sent up front');
    assert.deepEqual([...wire.offered], ['gh__a']);
  });

  it('a tool whose server went away is removed with that reason; the system prompt changing appends it as text', () => {
    const events: StreamEvent[] = [user('hi')];
    step(events, ['search_tools', 'gh__a']);
    const gone = step(events, ['search_tools'], { listed: new Set(['search_tools']), systemPrompt: 'sys 2' });
    assert.deepEqual(gone.map((e) => (e.type === 'wire_change' ? e.cause : e.type)), ['server', 'catalogue']);
    assert.equal(wireStateOf(events, []).systemNow, 'sys 2');
    assert.equal(wireStateOf(events, []).system, 'sys');
  });

  it('a restart keeps the changes appended after the reply it withdraws, and a withdrawn search result loads nothing', () => {
    const events: StreamEvent[] = [user('hi')];
    step(events, ['search_tools']);
    searched(events, 's1', [['gh__a', 'usable']]);
    events.push({ type: 'restart', at });
    const messages = transcriptOf(events);
    assert.equal(JSON.stringify(messages).includes('"s1"'), false);
    const appended = step(events, ['search_tools', 'gh__a']);
    assert.ok(appended.some((e) => e.type === 'wire_change' && e.added.includes('gh__a')), 'the promoted tool is added by a change instead');
  });

  it('after a compaction boundary, the tools the conversation had come back by one change (the block\'s own tool changes count)', () => {
    const boundary = (toolChanges?: { added: string[]; removed: string[] }): StreamEvent => ({
      type: 'assistant_message',
      content: [{ type: 'compaction', summary: 'so far', ...(toolChanges ? { toolChanges } : {}), wire: { type: 'compaction', content: 'so far' } }, { type: 'text', text: 'go on' }],
      stopReason: 'end_turn',
      at,
    });
    const opened = (): StreamEvent[] => {
      const events: StreamEvent[] = [user('hi')];
      step(events, ['search_tools', 'fs__read']);
      searched(events, 's1', [['gh__a', 'usable']]);
      return events;
    };
    // The server said nothing: only the tools array survived, so gh__a comes back by a change of its own.
    const bare = opened();
    bare.push(boundary(), user('more'));
    const back = step(bare, ['search_tools', 'fs__read', 'gh__a']);
    assert.deepEqual(back.map((e) => (e.type === 'wire_change' ? [e.cause, e.added, e.removed] : e.type)), [['compaction', ['gh__a'], []]]);
    assert.equal(step(bare, ['search_tools', 'fs__read', 'gh__a']).length, 0, 'once back, nothing more');
    // The server carried it over: nothing to give back.
    const carried = opened();
    carried.push(boundary({ added: ['gh__a'], removed: [] }), user('more'));
    assert.deepEqual(step(carried, ['search_tools', 'fs__read', 'gh__a']), []);
    // One the user turned off since is not given back.
    const off = opened();
    off.push(boundary(), user('more'));
    assert.deepEqual(step(off, ['search_tools', 'fs__read']), []);
  });
});
