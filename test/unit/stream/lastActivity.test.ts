import assert from 'node:assert/strict';
import { lastActivity } from '../../../src/core/stream/lastActivity';
import { serializeEvent } from '../../../src/core/stream/jsonLines';
import type { StreamEvent } from '../../../src/core/stream/events';

const file = (...events: StreamEvent[]): Buffer => Buffer.from(events.map(serializeEvent).join(''));
const message = (at: string): StreamEvent => ({ type: 'user_message', text: 'hi', at });

describe('lastActivity', () => {
  it('is the time of the last event', () => {
    assert.equal(lastActivity(file(message('2026-11-30T10:00:00.000Z'), { type: 'turn_end', reason: 'done', at: '2026-11-30T10:00:05.000Z' }))?.toISOString(), '2026-11-30T10:00:05.000Z');
  });

  it('skips renames at the end: a rename is not activity', () => {
    const f = file(message('2026-11-30T10:00:00.000Z'), { type: 'renamed', title: 'A', at: '2026-11-30T11:00:00.000Z' }, { type: 'renamed', title: 'B', at: '2026-11-30T12:00:00.000Z' });
    assert.equal(lastActivity(f)?.toISOString(), '2026-11-30T10:00:00.000Z');
  });

  it('skips a torn last line and blank lines, and reads a line whose keys come in another order', () => {
    const f = Buffer.concat([Buffer.from('{"at":"2026-11-30T09:00:00.000Z","type":"turn_start"}\n\n'), Buffer.from('{"type":"assistant_message","content":[{"type":"te')]);
    assert.equal(lastActivity(f)?.toISOString(), '2026-11-30T09:00:00.000Z');
  });

  it('is undefined when no line says when: an empty file, only renames, an invalid time', () => {
    assert.equal(lastActivity(Buffer.alloc(0)), undefined);
    assert.equal(lastActivity(file({ type: 'renamed', title: 'A', at: '2026-11-30T11:00:00.000Z' })), undefined);
    assert.equal(lastActivity(file(message('not a time'))), undefined);
  });

  it('reads a text containing "at" and "renamed" without being misled', () => {
    const f = file(message('2026-11-30T10:00:00.000Z'), { type: 'user_message', text: 'say "renamed" and "at":"1999-01-01T00:00:00.000Z"}', at: '2026-11-30T10:30:00.000Z' });
    assert.equal(lastActivity(f)?.toISOString(), '2026-11-30T10:30:00.000Z');
  });
});
