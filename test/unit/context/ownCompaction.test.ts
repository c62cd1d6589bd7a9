import assert from 'node:assert/strict';
import type { Attachment } from '../../../src/core/attachments/attachment';
import { nextPromptEstimate, segmentOpening, segmentStart, SUMMARY_INSTRUCTION, withSummaryInstruction } from '../../../src/core/context';
import type { ChatMessage, ModelRequest } from '../../../src/core/models/model';
import { fallbackCapabilities } from '../../../src/providers/anthropic/modelTable';
import { NO_CONTEXT_MANAGEMENT } from '../../../src/core/context';
import type { StreamEvent } from '../../../src/core/stream/events';
import { transcriptOf } from '../../../src/core/stream/transcript';
import type { ToolDefinition } from '../../../src/core/tools';
import { loadedDefinitions, wireEventsFor } from '../../../src/core/wire/wireChanges';
import { wireStateOf } from '../../../src/core/wire/wireState';
import { requestToWire } from '../../../src/providers/anthropic/toWire';

const at = '2026-12-02T00:00:00.000Z';
const ALL = ['search_tools', 'gh__a', 'gh__b', 'fs__read'];
const tool = (name: string): ToolDefinition => ({ name, server: name.includes('__') ? name.split('__')[0] : undefined, toolName: name, description: `${name} does things`, inputSchema: { type: 'object' } });
const file: Attachment = { kind: 'file', id: 'att1', uri: 'file:///w/a.ts', path: 'a.ts', language: 'typescript', range: { start: 1, end: 3 }, text: '<file a.ts>\nconst a = 1;\n</file>' };
const user = (text: string, attachments?: Attachment[]): StreamEvent => ({ type: 'user_message', text, ...(attachments ? { attachments } : {}), at });
const answer = (text: string): StreamEvent => ({ type: 'assistant_message', content: [{ type: 'text', text }], stopReason: 'end_turn', at });
const usage = (input: number, output = 10): StreamEvent => ({ type: 'usage', model: 'claude-fable-5-2', inputTokens: input, outputTokens: output, cacheReadTokens: 0, cacheWriteTokens: 0, at });
const compacted = (summary: string, attachments?: Attachment[]): StreamEvent => ({ type: 'compacted', summary, ...(attachments ? { attachments } : {}), at });

/** Appends what the turn loop appends before a request offering `desired`. */
function beforeRequest(events: StreamEvent[], desired: string[]): void {
  events.push(...wireEventsFor({ events, messages: transcriptOf(events), desired: desired.map(tool), forcedNow: undefined, listed: new Set(ALL), systemPrompt: 'sys', at }));
}

/** A conversation that searched and promoted gh__a and gh__b, then unloaded gh__b (it is no longer desired). */
function promoted(): StreamEvent[] {
  const events: StreamEvent[] = [user('find the tools', [file])];
  beforeRequest(events, ['search_tools', 'fs__read']);
  const search: StreamEvent[] = [
    { type: 'assistant_message', content: [{ type: 'tool_use', id: 's1', name: 'search_tools', input: { query: 'gh' } }], stopReason: 'tool_use', at },
    { type: 'tool_result', toolUseId: 's1', name: 'search_tools', content: [{ type: 'text', text: 'found gh__a, gh__b' }], isError: false, found: [{ name: 'gh__a', status: 'usable' }, { name: 'gh__b', status: 'usable' }], at },
  ];
  events.push(usage(2_000), ...search, ...loadedDefinitions(search, wireStateOf(events, []).definitions, ALL.map(tool), at));
  beforeRequest(events, ['search_tools', 'fs__read', 'gh__a', 'gh__b']);
  events.push(answer('found them'), usage(3_000), user('unload gh__b'));
  beforeRequest(events, ['search_tools', 'fs__read', 'gh__a']);
  events.push(answer('done'), usage(3_500));
  return events;
}

const request = (events: readonly StreamEvent[]): ModelRequest => {
  const messages = transcriptOf(events);
  const wire = wireStateOf(events, messages);
  return {
    model: 'claude-fable-5-2', capabilities: fallbackCapabilities('claude-fable-5-2'), system: wire.system ?? '', messages, upFront: wire.upFront, deferred: wire.deferred, discoveries: wire.discoveries,
    maxTokens: 100, thinking: 'adaptive', effort: undefined, previousMessageId: undefined, contextManagement: NO_CONTEXT_MANAGEMENT, cacheTtl: '5m',
  };
};

/** A body with its cache breakpoints taken off, as the prompt cache compares prefixes. */
const bare = (body: unknown): unknown => JSON.parse(JSON.stringify(body, (k, v: unknown) => (k === 'cache_control' ? undefined : v)));

describe("Quiver's own compaction: a new wire segment", () => {
  it('starts the segment at the latest compacted event; the stream before it stays, the wire sends from it', () => {
    const events = promoted();
    assert.equal(segmentStart(events), -1);
    events.push(compacted('We promoted gh__a.', [file]));
    assert.equal(segmentStart(events), events.length - 1);
    const messages = transcriptOf(events);
    assert.deepEqual(messages, [{ role: 'user', content: [{ type: 'text', text: segmentOpening('We promoted gh__a.') }, { type: 'text', text: file.text }] }]);
  });

  it("opens with the summary and the attachments, system and tools as first sent, and gives back the promoted tools but not the unloaded one", () => {
    const events = promoted();
    const first = requestToWire(request(events));
    events.push(usage(9_000), compacted('We promoted gh__a; gh__b was unloaded.', [file]), user('go on'));
    beforeRequest(events, ['search_tools', 'fs__read', 'gh__a']);
    const restored = events.filter((e) => e.type === 'wire_change' && e.cause === 'compaction');
    assert.deepEqual(restored.map((e) => (e.type === 'wire_change' ? e.added : [])), [['gh__a']], 'gh__a comes back by a change; gh__b, unloaded, does not');
    const body = requestToWire(request(events));
    assert.deepEqual(body.system, first.system, 'system as first sent');
    assert.deepEqual(body.tools, first.tools, 'tools as first sent');
    assert.equal(body.messages[0]?.role, 'user');
    const opening = JSON.stringify(body.messages[0]);
    assert.ok(opening.includes('We promoted gh__a') && opening.includes('const a = 1;') && opening.includes('go on'), 'summary, attachment and the new words');
    assert.deepEqual(bare(body.messages[1]), { role: 'system', content: [{ type: 'text', text: restored[0]?.type === 'wire_change' ? restored[0].text : '' }, { type: 'tool_addition', tool: { type: 'tool_reference', name: 'gh__a' } }] });
    assert.ok(!JSON.stringify(body.messages).includes('tool_reference","tool_name'), 'no search result from before the boundary');
  });

  it('keeps every request of a segment a byte-identical prefix of the next', () => {
    const events = promoted();
    events.push(usage(9_000), compacted('summary', [file]), user('go on'));
    beforeRequest(events, ['search_tools', 'fs__read', 'gh__a']);
    const one = bare(requestToWire(request(events))) as { system: unknown; tools: unknown; messages: unknown[] };
    events.push(answer('going on'), usage(1_000), user('and then'));
    beforeRequest(events, ['search_tools', 'fs__read', 'gh__a']);
    const two = bare(requestToWire(request(events))) as { system: unknown; tools: unknown; messages: unknown[] };
    assert.deepEqual(two.system, one.system);
    assert.deepEqual(two.tools, one.tools);
    assert.deepEqual(two.messages.slice(0, one.messages.length), one.messages);
    assert.ok(two.messages.length > one.messages.length);
  });

  it('starts an on-demand segment at the compaction block, sent first exactly as returned', () => {
    const events = promoted();
    const wire = { type: 'compaction', content: 'so far', encrypted_content: 'enc', signature: 'sig' };
    events.push({ type: 'assistant_message', content: [{ type: 'compaction', summary: 'so far', wire }], stopReason: 'compaction', onDemand: true, at }, user('next'));
    const body = requestToWire(request(events));
    assert.deepEqual(body.messages[0], { role: 'assistant', content: [wire] });
    assert.equal(body.messages[1]?.role, 'user');
    // A threshold boundary (not on demand) is appended as usual: the wire still sends from the start.
    const threshold = promoted();
    threshold.push({ type: 'assistant_message', content: [{ type: 'compaction', summary: 'so far', wire }], stopReason: 'compaction', at });
    assert.equal(segmentStart(threshold), -1);
  });

  it('asks for the summary after the last reply, or in the last user message (tool results)', () => {
    const afterReply: ChatMessage[] = [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }, { role: 'assistant', content: [{ type: 'text', text: 'hello' }] }];
    assert.deepEqual(withSummaryInstruction(afterReply).at(-1), { role: 'user', content: [{ type: 'text', text: SUMMARY_INSTRUCTION }] });
    const midTurn: ChatMessage[] = [...afterReply.slice(0, 1), { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'fs__read', input: {} }] }, { role: 'user', content: [{ type: 'tool_result', toolUseId: 't', content: [], isError: false }] }];
    const asked = withSummaryInstruction(midTurn);
    assert.equal(asked.length, 3);
    assert.deepEqual(asked[2]?.role === 'user' ? asked[2].content.at(-1) : undefined, { type: 'text', text: SUMMARY_INSTRUCTION });
  });

  it('estimates the next prompt from the segment only: the last usage after the boundary, plus what came since', () => {
    const events = promoted();
    assert.equal(nextPromptEstimate(events), 3_510);
    events.push(user('x'.repeat(3_500)));
    assert.equal(nextPromptEstimate(events), 4_510);
    events.push(usage(200_000, 500), compacted('s'.repeat(350)));
    const opening = Math.ceil(segmentOpening('s'.repeat(350)).length / 3.5);
    assert.equal(nextPromptEstimate(events), opening, "the summarizing request's usage (before the boundary) does not count");
  });
});
