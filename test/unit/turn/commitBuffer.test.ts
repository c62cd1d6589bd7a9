import assert from 'node:assert/strict';
import { parseToolsConfig, resolveTool } from '../../../src/core/availability';
import { configAt } from '../../../src/core/stream/config';
import type { StreamEvent } from '../../../src/core/stream/events';
import type { ToolDefinition } from '../../../src/core/tools/definitions';
import { foldCycle, type BufferEntry } from '../../../src/core/turn/commitBuffer';
import { renderSearchResult } from '../../../src/core/turn/searchResult';

const at = '2026-11-30T00:00:00.000Z';
const tool = (name: string): ToolDefinition => ({ name, server: 'ci', toolName: name, description: `${name} tool`, inputSchema: { type: 'object' } });
const catalogue = [tool('ci__deploy'), tool('ci__deploy_staging'), tool('ci__status')];
const start = parseToolsConfig({ '*': { enable: 'discoverable' }, ci__status: { enable: 'on' } }).value;
const search = (index: number, id: string, ...names: string[]): BufferEntry => ({ index, kind: 'search', toolUseId: id, results: names.map((name) => ({ name, summary: name, score: 1, tier: 0 })), loadBudget: Number.POSITIVE_INFINITY, total: names.length });
const budgeted = (index: number, id: string, loadBudget: number, ...names: string[]): BufferEntry => ({ index, kind: 'search', toolUseId: id, results: names.map((name) => ({ name, summary: `${name}.`, score: 1, tier: 0 })), loadBudget, total: names.length });
const answerOf = (events: StreamEvent[], id: string) => {
  const e = events.find((x) => x.type === 'tool_result' && x.toolUseId === id);
  return JSON.parse(e?.type === 'tool_result' ? (e.content[0] as { text: string }).text : '{}') as { results: { name: string; status: string }[]; not_loaded?: { name: string }[]; note: string };
};
const fold = (entries: BufferEntry[]): StreamEvent[] => foldCycle(start, entries, catalogue, at, renderSearchResult);
const found = (events: StreamEvent[], id: string) => events.flatMap((e) => (e.type === 'tool_result' && e.toolUseId === id ? (e.found ?? []) : []));
const availability = (events: StreamEvent[], name: string) => resolveTool(configAt([{ type: 'config_delta', source: 'settings', tools: { '*': { enable: 'discoverable' }, ci__status: { enable: 'on' } }, at }, ...events]), { name, server: 'ci' }).availability;

describe('folding a cycle by tool-call index', () => {
  it('a promotion of a discoverable tool is applied and reported usable', () => {
    const events = fold([search(0, 's1', 'ci__deploy')]);
    assert.deepEqual(events.map((e) => e.type), ['config_delta', 'tool_result']);
    assert.deepEqual(events[0], { type: 'config_delta', source: 'promotion', tools: { ci__deploy: { enable: { availability: 'on' } } }, at });
    assert.deepEqual(found(events, 's1'), [{ name: 'ci__deploy', status: 'usable' }]);
    assert.equal(events[1] !== undefined && 'notLoaded' in events[1], false, 'no notLoaded field when the budget left nothing out');
  });

  it('a promotion folded after an approved disable of the same tool (earlier index) is skipped: found, unavailable', () => {
    const disable: BufferEntry = { index: 0, kind: 'write', tools: { ci__deploy: { enable: { availability: 'off' } } } };
    // Pushed out of order on purpose: the fold orders by call index, not arrival.
    const events = fold([search(1, 's1', 'ci__deploy'), disable]);
    assert.deepEqual(events.map((e) => (e.type === 'config_delta' ? e.source : e.type)), ['user', 'tool_result']);
    assert.deepEqual(found(events, 's1'), [{ name: 'ci__deploy', status: 'found, unavailable' }]);
    assert.equal(availability(events, 'ci__deploy'), 'off');
    const text = events[1]?.type === 'tool_result' ? (events[1].content[0] as { text: string }).text : '';
    assert.match(text, /"status":"found, unavailable"/);
  });

  it('two searches matching the same tool both report usable, with one delta', () => {
    const events = fold([search(0, 's1', 'ci__deploy_staging', 'ci__deploy'), search(1, 's2', 'ci__deploy_staging')]);
    assert.equal(events.filter((e) => e.type === 'config_delta').length, 1);
    assert.deepEqual(found(events, 's1').map((f) => f.status), ['usable', 'usable']);
    assert.deepEqual(found(events, 's2'), [{ name: 'ci__deploy_staging', status: 'usable' }]);
  });

  it('a promotion can only move discoverable → on (an off tool stays off)', () => {
    const offStart = parseToolsConfig({ ci__deploy: { enable: 'off' } }).value;
    const events = foldCycle(offStart, [search(0, 's1', 'ci__deploy')], catalogue, at, renderSearchResult);
    assert.deepEqual(events.map((e) => e.type), ['tool_result']);
  });

  it('promotes the best matches while the load budget lasts; the rest are named in the text, not promoted, and recorded as notLoaded', () => {
    const events = fold([budgeted(0, 's1', 0, 'ci__deploy', 'ci__deploy_staging')]);
    assert.deepEqual(events[0], { type: 'config_delta', source: 'promotion', tools: { ci__deploy: { enable: { availability: 'on' } } }, at });
    assert.deepEqual(found(events, 's1'), [{ name: 'ci__deploy', status: 'usable' }]);
    assert.deepEqual(events[1]?.type === 'tool_result' ? events[1].notLoaded : undefined, ['ci__deploy_staging'], 'the stream names them for the chat card');
    assert.equal(availability(events, 'ci__deploy_staging'), 'discoverable');
    const answer = answerOf(events, 's1');
    assert.deepEqual(answer.results, [{ name: 'ci__deploy', status: 'usable' }], 'a loaded tool is named only: its definition carries the description');
    assert.deepEqual(answer.not_loaded, [{ name: 'ci__deploy_staging', summary: 'ci__deploy_staging.' }]);
    assert.match(answer.note, /"not_loaded": not loaded; to load one, search its exact name with limit 1\./);
    assert.doesNotMatch(answer.note, /more matched/);
    const roomy = fold([budgeted(0, 's1', 1_000, 'ci__deploy', 'ci__deploy_staging')]);
    assert.deepEqual(found(roomy, 's1').map((f) => f.name), ['ci__deploy', 'ci__deploy_staging']);
  });

  it('a match an earlier call of the cycle promoted is usable and spends no budget; the next discoverable one loads', () => {
    const events = fold([search(0, 's1', 'ci__deploy'), budgeted(1, 's2', 0, 'ci__deploy', 'ci__deploy_staging', 'ci__status')]);
    assert.deepEqual(found(events, 's2'), [{ name: 'ci__deploy', status: 'usable' }, { name: 'ci__deploy_staging', status: 'usable' }, { name: 'ci__status', status: 'usable' }]);
    assert.equal(answerOf(events, 's2').not_loaded, undefined, 'ci__status is on from the start: nothing is left out');
  });

  it('a match turned off earlier in the cycle is found, unavailable, never listed as loadable, and spends no budget', () => {
    const disable: BufferEntry = { index: 0, kind: 'write', tools: { ci__deploy: { enable: { availability: 'off' } } } };
    const events = fold([disable, budgeted(1, 's1', 0, 'ci__deploy', 'ci__deploy_staging')]);
    assert.deepEqual(found(events, 's1'), [{ name: 'ci__deploy', status: 'found, unavailable' }, { name: 'ci__deploy_staging', status: 'usable' }]);
    assert.equal(answerOf(events, 's1').not_loaded, undefined);
    assert.equal(availability(events, 'ci__deploy_staging'), 'on');
  });

  it('loads only the matches close to the best one, however roomy the budget; the rest are named as not loaded', () => {
    const scored = (id: string, ...hits: (readonly [string, number, number?])[]): BufferEntry => ({ index: 0, kind: 'search', toolUseId: id, results: hits.map(([name, score, tier = 0]) => ({ name, summary: `${name}.`, score, tier })), loadBudget: Number.POSITIVE_INFINITY, total: hits.length });
    const events = fold([scored('s1', ['ci__deploy', 10], ['ci__deploy_staging', 2])]);
    assert.deepEqual(events[0], { type: 'config_delta', source: 'promotion', tools: { ci__deploy: { enable: { availability: 'on' } } }, at });
    assert.deepEqual(found(events, 's1').map((f) => f.name), ['ci__deploy']);
    assert.deepEqual(answerOf(events, 's1').not_loaded?.map((t) => t.name), ['ci__deploy_staging']);
    assert.deepEqual(found(fold([scored('s2', ['ci__deploy', 10], ['ci__deploy_staging', 9])]), 's2').map((f) => f.name), ['ci__deploy', 'ci__deploy_staging'], 'a close second loads too');
    assert.deepEqual(found(fold([scored('s3', ['ci__deploy', 1, 2], ['ci__deploy_staging', 9])]), 's3').map((f) => f.name), ['ci__deploy'], 'the tool the query names is not joined by ones found on other words');
  });

  it('closeness is judged against the search\'s best match even when an earlier call promoted it; the best discoverable one still loads', () => {
    const scored: BufferEntry = { index: 1, kind: 'search', toolUseId: 's2', results: [{ name: 'ci__deploy', summary: '', score: 10, tier: 0 }, { name: 'ci__deploy_staging', summary: '', score: 2, tier: 0 }, { name: 'ci__status', summary: '', score: 1, tier: 0 }], loadBudget: Number.POSITIVE_INFINITY, total: 3 };
    const events = fold([search(0, 's1', 'ci__deploy'), scored]);
    assert.deepEqual(found(events, 's2'), [{ name: 'ci__deploy', status: 'usable' }, { name: 'ci__deploy_staging', status: 'usable' }, { name: 'ci__status', status: 'usable' }]);
    assert.equal(availability(events, 'ci__deploy_staging'), 'on');
  });

  it('a search with nothing left out has no not_loaded list', () => {
    const text = JSON.parse(renderSearchResult({ found: [{ name: 'ci__deploy', summary: 'Deploy.', status: 'usable' }], notLoaded: [], alreadyLoaded: [], signInRequired: [], waitingForSignIn: [], serversStarting: [], total: 3 })) as Record<string, unknown>;
    assert.equal('not_loaded' in text, false);
    assert.equal('already_loaded' in text, false);
    assert.match(String(text['note']), /2 more matched; if none fits, search with other words or a higher limit\./);
  });

  it('a search matching only a tool loaded already names it as loaded: no promotion, no delta, no budget spent', () => {
    const entry: BufferEntry = { index: 0, kind: 'search', toolUseId: 's1', results: [], loadBudget: 0, total: 0, alreadyLoaded: [{ name: 'ci__status', summary: 'Status of CI.', score: 3, tier: 2 }] };
    const events = fold([entry]);
    assert.deepEqual(events.map((e) => e.type), ['tool_result'], 'no config_delta');
    const e = events[0];
    assert.deepEqual(e?.type === 'tool_result' ? [e.found, e.alreadyLoaded, 'notLoaded' in e] : [], [[], ['ci__status'], false]);
    const text = e?.type === 'tool_result' ? (e.content[0] as { text: string }).text : '';
    assert.equal(text, '{"results":[],"already_loaded":[{"name":"ci__status","summary":"Status of CI."}],"total":0,"note":"No tool that is not loaded yet matched. Tools under \\"already_loaded\\" are loaded already: call them directly."}');
  });

  it('beside promoted results, a loaded match is listed under already_loaded with its own note', () => {
    const entry: BufferEntry = { ...(search(0, 's1', 'ci__deploy') as Extract<BufferEntry, { kind: 'search' }>), alreadyLoaded: [{ name: 'ci__status', summary: 'Status.', score: 1, tier: 0 }] };
    const events = fold([entry]);
    assert.deepEqual(events.map((e) => e.type), ['config_delta', 'tool_result']);
    assert.deepEqual(events[0]?.type === 'config_delta' ? Object.keys(events[0].tools) : [], ['ci__deploy'], 'only the discoverable match is promoted');
    const answer = answerOf(events, 's1') as { results: { name: string }[]; already_loaded?: { name: string }[]; note: string };
    assert.deepEqual(answer.results.map((r) => r.name), ['ci__deploy']);
    assert.deepEqual(answer.already_loaded?.map((r) => r.name), ['ci__status']);
    assert.match(answer.note, /"usable": callable in your next reply\. Tools under "already_loaded" are loaded already: call them directly\./);
  });

  it('a loaded match that a write earlier in the cycle turned off is not named as loaded', () => {
    const entry: BufferEntry = { index: 1, kind: 'search', toolUseId: 's1', results: [], loadBudget: 0, total: 0, alreadyLoaded: [{ name: 'ci__status', summary: 'Status.', score: 1, tier: 0 }] };
    const events = fold([{ index: 0, kind: 'write', tools: { ci__status: { enable: 'off' } } }, entry]);
    const e = events.find((x) => x.type === 'tool_result');
    assert.equal(e !== undefined && 'alreadyLoaded' in e, false);
    assert.match(answerOf(events, 's1').note, /^No tools matched, and none was left out/);
  });

  it('an empty answer with nothing excluded says no tools matched and that none was left out', () => {
    assert.equal(
      renderSearchResult({ found: [], notLoaded: [], alreadyLoaded: [], signInRequired: [], waitingForSignIn: [], serversStarting: [], total: 0 }),
      '{"results":[],"total":0,"note":"No tools matched, and none was left out: every tool you can load was searched. Try other keywords (a verb and an object, e.g. \\"create issue\\")."}',
    );
  });

  it('servers still starting are named beside the results, as not searched yet, and recorded for the card', () => {
    const entry: BufferEntry = { index: 0, kind: 'search', toolUseId: 's1', results: [{ name: 'ci__deploy', summary: 'Deploy.', score: 3, tier: 0 }], loadBudget: 4_000, total: 1, serversStarting: ['db', 'mail'] };
    const events = fold([entry]);
    const e = events.find((x) => x.type === 'tool_result');
    assert.deepEqual(e?.type === 'tool_result' ? e.serversStarting : undefined, ['db', 'mail']);
    const answer = JSON.parse(e?.type === 'tool_result' ? (e.content[0] as { text: string }).text : '{}') as { servers_starting: string[]; note: string };
    assert.deepEqual(answer.servers_starting, ['db', 'mail']);
    assert.match(answer.note, /Under "servers_starting": MCP servers "db", "mail", still starting; their tools are not listed yet, so they were not searched\. If the task may need them, search again in a few seconds\./);
  });

  it('a match behind a server waiting for sign-in is named with its server and what the user must do; never promoted', () => {
    const entry: BufferEntry = { index: 0, kind: 'search', toolUseId: 's1', results: [], loadBudget: 0, total: 0, signInRequired: [{ name: 'guarded__whoami', summary: 'Who am I.', score: 2, tier: 2, server: 'guarded' }], waitingForSignIn: ['linear'] };
    const events = fold([entry]);
    assert.deepEqual(events.map((e) => e.type), ['tool_result'], 'no config_delta');
    const e = events[0];
    assert.deepEqual(e?.type === 'tool_result' ? [e.signInRequired, e.waitingForSignIn] : [], [['guarded__whoami'], ['linear']]);
    assert.equal(
      e?.type === 'tool_result' ? (e.content[0] as { text: string }).text : '',
      '{"results":[],"sign_in_required":[{"name":"guarded__whoami","summary":"Who am I.","server":"guarded"}],"waiting_for_sign_in":["linear"],"total":0,"note":"No tool you can load now matched. ' +
        'Tools under \\"sign_in_required\\" are on MCP server \\"guarded\\", which waits for the user to sign in: they cannot be loaded or called until then. Tell the user to sign in (in the Tools view, click the server\'s \\"Sign in required\\" row, or run the command \\"Quiver: Sign In to MCP Server…\\"), then search again. ' +
        'Under \\"waiting_for_sign_in\\": MCP server \\"linear\\", which waits for the user to sign in; its tools are not known until then, so they were not searched. If the task may need it, tell the user to sign in (in the Tools view, click the server\'s \\"Sign in required\\" row, or run the command \\"Quiver: Sign In to MCP Server…\\")."}',
    );
  });

  it('results come out in call order', () => {
    const result = (index: number, id: string): BufferEntry => ({ index, kind: 'result', toolUseId: id, name: 'ci__status', result: { content: [], isError: false }, notRun: undefined });
    const events = fold([result(2, 'c'), result(0, 'a'), result(1, 'b')]);
    assert.deepEqual(events.map((e) => (e.type === 'tool_result' ? e.toolUseId : '')), ['a', 'b', 'c']);
  });
});
