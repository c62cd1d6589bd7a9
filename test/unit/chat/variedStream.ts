import type { AssistantBlock, StreamEvent, WireTool } from '../../../src/core/stream/events';

/** A number in [0, 1), the next of a seeded sequence. */
type Rand = () => number;

/**
 * A conversation's stream of `length` events, varied the way the turn loop writes them: thinking,
 * text, tool calls and searches (promotions recorded before or after their result, definitions
 * sent deferred), results that failed, did not run, were stopped, kept or changed files, usage,
 * settings and `/set` deltas, turns cut off without an end. With `rewrites`, also the events that
 * change how earlier ones read: failed messages (retried by a restart, or dropped), restarts of
 * a finished reply, undone changes. The same seed gives the same stream.
 */
export function variedStream(length: number, options: { readonly rewrites: boolean; readonly seed?: number }): StreamEvent[] {
  let state = options.seed ?? 7;
  const rand: Rand = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
  const at = '2026-01-01T00:00:00.000Z';
  const events: StreamEvent[] = [];
  const push = (...e: StreamEvent[]): number => events.push(...e);
  const definition = (name: string): WireTool => ({ name, description: `The ${name} tool.`, inputSchema: { type: 'object', properties: { q: { type: 'string' } } } });
  const promoted: string[] = [];
  let lastCall = 'none';

  for (let turn = 0; events.length < length; turn++) {
    push({ type: 'turn_start', at });
    if (turn === 0) {
      push({ type: 'config_delta', source: 'settings', tools: { 'fs__*': { enable: 'on' }, 'git__*': { enable: 'discoverable' } }, at });
      push({ type: 'wire_system', text: 'You are Quiver.', at }, { type: 'wire_tools', placement: 'upFront', tools: [definition('fs__read')], at });
    }
    if (rand() < 0.1) push({ type: 'config_delta', source: 'settings', tools: { 'fs__*': { enable: pick(rand, ['on', 'discoverable']) } }, at });
    if (promoted.length > 0 && rand() < 0.15) push({ type: 'config_delta', source: 'user', tools: { [pick(rand, promoted)]: { enable: pick(rand, ['on', 'off']) } }, at });
    const userAt = push(userMessage(turn, rand, at)) - 1;
    if (options.rewrites && rand() < 0.12) {
      push({ type: 'turn_end', reason: 'error', message: 'The API refused it.', cause: 'the API refused it (400)', at });
      const after = rand();
      if (after < 0.4) push({ type: 'message_dropped', index: userAt, at });
      else if (after < 0.8) push({ type: 'restart', at }, { type: 'assistant_message', content: [{ type: 'text', text: `Retried answer ${turn}.` }], stopReason: 'end_turn', at }, { type: 'turn_end', reason: 'done', at });
      continue;
    }
    const cycles = 1 + Math.floor(rand() * 3);
    const changedCalls: string[] = [];
    for (let cycle = 0; cycle < cycles; cycle++) {
      push({ type: 'usage', model: 'claude-x', inputTokens: 100 + turn, outputTokens: 20, cacheReadTokens: 90, cacheWriteTokens: 5, at });
      const calls = cycle === cycles - 1 ? [] : Array.from({ length: 1 + Math.floor(rand() * 2) }, (_, j) => (rand() < 0.05 ? lastCall : `toolu_${turn}_${cycle}_${j}`));
      const content: AssistantBlock[] = [];
      if (rand() < 0.5) content.push({ type: 'thinking', thinking: rand() < 0.2 ? '' : `Thinking about step ${cycle}.`, signature: 'sig' });
      if (rand() < 0.1) content.push({ type: 'redacted_thinking', data: 'opaque' });
      if (calls.length === 0 || rand() < 0.5) content.push({ type: 'text', text: `Answer **${turn}.${cycle}**: ${'words '.repeat(1 + Math.floor(rand() * 30))}` });
      const names = calls.map(() => (rand() < 0.3 ? 'search_tools' : pick(rand, ['fs__read', 'fs__write', 'git__log'])));
      calls.forEach((id, j) => content.push({ type: 'tool_use', id, name: names[j] as string, input: { q: `input ${j}` } }));
      push({ type: 'assistant_message', content, stopReason: calls.length > 0 ? 'tool_use' : 'end_turn', at });
      if (calls.length > 0 && rand() < 0.04) break; // the window closed mid-turn: no results, no end
      calls.forEach((id, j) => {
        lastCall = id;
        if (names[j] === 'search_tools') push(...searchEvents(id, turn, rand, promoted, at, definition));
        else {
          const result = toolResult(id, names[j] as string, rand, at);
          if (result.type === 'tool_result' && result.changes !== undefined) changedCalls.push(id);
          push(result);
        }
      });
    }
    if (events.length >= length) break;
    if (events[events.length - 1]?.type === 'assistant_message' && rand() < 0.5) continue;
    push({ type: 'turn_end', reason: pick(rand, ['done', 'done', 'done', 'cancelled', 'max_cycles', 'cut_off'] as const), at });
    if (options.rewrites && rand() < 0.08) push({ type: 'restart', at }, { type: 'assistant_message', content: [{ type: 'text', text: `Regenerated ${turn}.` }], stopReason: 'end_turn', at }, { type: 'turn_end', reason: 'done', at });
    if (options.rewrites && changedCalls.length > 0 && rand() < 0.5) push({ type: 'changes_undone', toolUseIds: changedCalls, restored: ['src/a.ts'], skipped: [], at });
    if (rand() < 0.03) push({ type: 'renamed', title: `Chat ${turn}`, at });
  }
  return events.slice(0, length);
}

function userMessage(turn: number, rand: Rand, at: string): StreamEvent {
  const attachments = rand() < 0.2 ? [{ kind: 'selection' as const, id: `a${turn}`, uri: 'file:///w/src/a.ts', path: 'src/a.ts', language: 'typescript', range: { start: 1, end: 3 }, text: 'const a = 1;' }] : undefined;
  return { type: 'user_message', text: `Question ${turn}`, ...(rand() < 0.1 ? { forced: 'fs__read' } : {}), ...(attachments ? { attachments } : {}), at };
}

function toolResult(toolUseId: string, name: string, rand: Rand, at: string): StreamEvent {
  const content = [{ type: 'text' as const, text: `Result of ${toolUseId}` }];
  const r = rand();
  if (r < 0.1) return { type: 'tool_result', toolUseId, name, content, isError: true, notRun: pick(rand, ['denied', 'cancelled', 'refused'] as const), at };
  if (r < 0.15) return { type: 'tool_result', toolUseId, name, content, isError: true, stopped: true, at };
  if (r < 0.25) return { type: 'tool_result', toolUseId, name, content, isError: true, at };
  if (r < 0.35) return { type: 'tool_result', toolUseId, name, content, isError: false, kept: { ref: 'r1', status: 'truncated', shownChars: 10, totalChars: 900 }, at };
  if (name === 'fs__write' && r < 0.8) return { type: 'tool_result', toolUseId, name, content, isError: false, changes: [{ kind: 'edit', path: '/w/src/a.ts', label: 'src/a.ts', before: 'a\n', after: 'b\nc\n' }], at };
  return { type: 'tool_result', toolUseId, name, content, isError: false, at };
}

function pick<T>(rand: Rand, list: readonly T[]): T {
  return list[Math.floor(rand() * list.length)] as T;
}

/** A search's result with its promotion recorded before or after it, and the deferred definitions. */
function searchEvents(toolUseId: string, turn: number, rand: Rand, promoted: string[], at: string, definition: (name: string) => WireTool): StreamEvent[] {
  if (rand() < 0.1) return [{ type: 'tool_result', toolUseId, name: 'search_tools', content: [{ type: 'text', text: 'query must not be empty' }], isError: true, at }];
  const found = [`git__t${turn}a`, `git__t${turn}b`];
  const promotion: StreamEvent = { type: 'config_delta', source: 'promotion', tools: { [found[0] as string]: { enable: 'on' } }, at };
  const result: StreamEvent = {
    type: 'tool_result', toolUseId, name: 'search_tools', content: [{ type: 'text', text: 'results' }], isError: false,
    found: [{ name: found[0] as string, status: 'usable' }, { name: found[1] as string, status: 'found, unavailable' }],
    notLoaded: [`git__t${turn}c`], ...(promoted.length > 0 && rand() < 0.3 ? { alreadyLoaded: [promoted[0] as string] } : {}), at,
  };
  promoted.push(found[0] as string);
  const wire: StreamEvent = { type: 'wire_tools', placement: 'deferred', tools: [definition(found[0] as string)], at };
  return rand() < 0.5 ? [promotion, result, wire] : [result, promotion, wire];
}
