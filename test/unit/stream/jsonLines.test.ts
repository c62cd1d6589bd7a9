import assert from 'node:assert/strict';
import { parseStreamText, serializeEvent } from '../../../src/core/stream/jsonLines';
import type { StreamEvent } from '../../../src/core/stream/events';

const at = '2026-11-30T00:00:00.000Z';
const start: StreamEvent = { type: 'turn_start', at };
const message: StreamEvent = { type: 'user_message', text: 'hi', at };

describe('stream lines', () => {
  it('loads every valid line', () => {
    const parsed = parseStreamText(serializeEvent(start) + serializeEvent(message));
    assert.deepEqual(parsed.events, [start, message]);
    assert.deepEqual(parsed.issues, []);
    assert.equal(parsed.needsNewline, false);
  });

  it('a torn last line is reported and dropped, everything before it loads', () => {
    const good = serializeEvent(start) + serializeEvent(message);
    const torn = serializeEvent({ type: 'user_message', text: 'cut here', at }).slice(0, 20);
    const parsed = parseStreamText(good + torn);
    assert.deepEqual(parsed.events, [start, message]);
    assert.equal(parsed.issues.length, 1);
    assert.match(parsed.issues[0]?.message ?? '', /last line .* cut short/);
    assert.equal(parsed.validBytes, Buffer.byteLength(good));
  });

  it('a complete last line without its newline loads and asks for a newline before the next append', () => {
    const parsed = parseStreamText(serializeEvent(start) + JSON.stringify(message));
    assert.deepEqual(parsed.events, [start, message]);
    assert.equal(parsed.needsNewline, true);
  });

  it('invalid and unknown lines in the middle are reported and skipped', () => {
    const text = [
      JSON.stringify(start),
      '{not json',
      JSON.stringify({ type: 'mystery', at }),
      JSON.stringify({ type: 'usage', model: 'm', inputTokens: -1, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, at }),
      JSON.stringify(message),
      '',
    ].join('\n');
    const parsed = parseStreamText(text);
    assert.deepEqual(parsed.events, [start, message]);
    assert.deepEqual(parsed.issues.map((i) => i.line), [2, 3, 4]);
    assert.match(parsed.issues[1]?.message ?? '', /event "mystery"/);
  });

  it('legacy enable forms stay inside a stored delta as written', () => {
    const legacy: StreamEvent = { type: 'config_delta', source: 'user', tools: { fs__write: { enable: { state: false } } }, at };
    assert.deepEqual(parseStreamText(serializeEvent(legacy)).events, [legacy]);
  });
});
