import assert from 'node:assert/strict';
import { parseStreamText } from '../../../src/core/stream/jsonLines';

describe('attachments in the stream', () => {
  it('a user_message written before attachments existed still loads, and one with attachments loads them', () => {
    const old = '{"type":"user_message","text":"hi","at":"2026-11-01T00:00:00.000Z"}';
    const attached = JSON.stringify({
      type: 'user_message', text: 'what is this?', at: '2026-12-01T00:00:00.000Z',
      attachments: [
        { kind: 'selection', id: 'a', uri: 'file:///w/a.ts', path: 'a.ts', language: 'typescript', range: { start: 1, end: 2 }, text: 'Selection from a.ts…' },
        { kind: 'problems', id: 'b', uri: null, path: null, text: 'Problems in the workspace: none reported.' },
      ],
    });
    const parsed = parseStreamText(`${old}\n${attached}\n`);
    assert.deepEqual(parsed.issues, []);
    assert.deepEqual(parsed.events.map((e) => (e.type === 'user_message' ? (e.attachments ?? []).map((a) => a.kind) : [])), [[], ['selection', 'problems']]);
  });

  it('an attachment of an unknown kind is reported, not guessed', () => {
    const bad = JSON.stringify({ type: 'user_message', text: 'x', at: '2026-12-01T00:00:00.000Z', attachments: [{ kind: 'image', id: 'a', text: '' }] });
    assert.equal(parseStreamText(`${bad}\n`).issues.length, 1);
  });
});
