import assert from 'node:assert/strict';
import { readKept } from '../../../src/core/results/readKept';
import { parseReadRequest, type ReadRequest } from '../../../src/core/results/readRequest';

const request = (input: Record<string, unknown>): ReadRequest => {
  const parsed = parseReadRequest({ ref: 'r1', ...input });
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value;
};
const read = (text: string, input: Record<string, unknown>, budget = 7_000): { text: string; isError: boolean } => {
  const r = readKept('r1', text, request(input), budget);
  return { text: r.content.map((c) => (c.type === 'text' ? c.text : '')).join(''), isError: r.isError };
};
const log = Array.from({ length: 1_000 }, (_, i) => (i === 911 ? 'ERROR disk quota exceeded for INV-88213' : `line ${i + 1} ok`)).join('\n');

describe('read_result: reading a kept result', () => {
  it('grep: the matching lines with their numbers and a little context, grep -n style', () => {
    const { text } = read(log, { grep: 'inv-88213' });
    assert.equal(text, '[r1: 1 line contains "inv-88213" (case-insensitive; 1,000 lines in all); all of them are shown.]\n910- line 910 ok\n911- line 911 ok\n912: ERROR disk quota exceeded for INV-88213\n913- line 913 ok\n914- line 914 ok');
  });

  it('grep that finds nothing says for sure the text is not there', () => {
    assert.match(read(log, { grep: 'INV-00000' }).text, /^\[r1: no line contains "INV-00000" \(case-insensitive; 1,000 lines in all\)\. r1 is kept whole, so the text is not in that part of the result\.\]$/);
  });

  it('grep answers within the budget and says where to go on', () => {
    const { text } = read(log, { grep: 'ok', context: 0 }, 2_000);
    assert.ok(text.length <= 2_000, `${text.length} characters`);
    const next = /"offset": (\d+)\}/.exec(text)?.[1];
    assert.match(text, /^\[r1: 999 lines contain "ok" \(case-insensitive; 1,000 lines in all\); shown: the first \d+; for the rest call read_result with \{"ref": "r1", "grep": "ok", "offset": \d+\}\.\]/);
    const more = read(log, { grep: 'ok', context: 0, offset: Number(next) }, 2_000).text;
    assert.match(more, new RegExp(`from line ${Number(next).toLocaleString('en-US')} on`));
    assert.match(more.split('\n')[1] ?? '', new RegExp(`^${next}: line ${next} ok$`));
  });

  it('grep answers within the budget whatever the text it looks for', () => {
    const needle = '"quoted" text '.repeat(35);
    const text = Array.from({ length: 500 }, () => `x ${needle} y`).join('\n');
    assert.ok(read(text, { grep: needle, context: 0 }, 3_500).text.length <= 3_500);
  });

  it('grep shows a long line around the match, with where it sits in the line', () => {
    const text = `${'a'.repeat(5_000)}NEEDLE${'b'.repeat(5_000)}`;
    assert.match(read(text, { grep: 'needle' }).text, /\n1: …a{150}NEEDLEb{150}… \(characters 4,851–5,156 of 10,006\)$/);
  });

  it('pages by line, saying where the next page starts, and ends at the end', () => {
    assert.equal(read(log, { offset: 3, length: 2 }).text, '[r1: lines 3–4 of 1,000; the next line is 5.]\nline 3 ok\nline 4 ok');
    assert.equal(read(log, { offset: 999 }).text, '[r1: lines 999–1,000 of 1,000; that is the end of the result.]\nline 999 ok\nline 1000 ok');
    const bounded = read(log, { offset: 1 }, 1_000).text;
    assert.ok(bounded.length <= 1_000);
    assert.match(bounded, /^\[r1: lines 1–\d+ of 1,000 \(as many as fit in one answer\); the next line is \d+\.\]/);
  });

  it('pages by character, and a line too long for one answer points there', () => {
    const one = 'x'.repeat(20_000);
    assert.equal(read(one, { unit: 'characters', offset: 5, length: 3 }).text, '[r1: characters 5–7 of 20,000; the next is 8.]\nxxx');
    assert.match(read(one, { offset: 1 }, 1_000).text, /^\[r1: line 1 of 1 is 20,000 characters long; its first \d+ follow\. To read on call read_result with \{"ref": "r1", "unit": "characters", "offset": \d+\}\.\]/);
  });

  it('an offset past the end is an error naming the size', () => {
    assert.deepEqual(read(log, { offset: 5_000 }), { text: 'read_result: r1 has 1,000 lines; offset 5,000 is past its end.', isError: true });
  });
});

describe('read_result: its input, checked strictly', () => {
  const bad: [Record<string, unknown>, RegExp][] = [
    [{ ref: '../c-abc-00000000.jsonl' }, /"ref" must be the reference a shortened result opens with/],
    [{ ref: 'r0' }, /"ref" must be/],
    [{ ref: 'r1/..' }, /"ref" must be/],
    [{}, /"ref" must be .*got nothing/],
    [{ ref: 'r1', path: '/etc/passwd' }, /unknown argument "path"\. It takes "ref", "grep", "offset", "length", "unit", "context"/],
    [{ ref: 'r1', grep: '' }, /"grep" must be a text of 1 to 500 characters/],
    [{ ref: 'r1', offset: 0 }, /"offset" must be a whole number, 1 or more/],
    [{ ref: 'r1', length: 2.5 }, /"length" must be a whole number/],
    [{ ref: 'r1', unit: 'bytes' }, /"unit" must be "lines" or "characters"/],
    [{ ref: 'r1', context: 11 }, /"context" must be a whole number from 0 to 10/],
    [{ ref: 'r1', grep: 'x', unit: 'characters' }, /"grep" finds lines/],
  ];
  for (const [input, message] of bad) {
    it(`refuses ${JSON.stringify(input)}`, () => {
      const parsed = parseReadRequest(input);
      assert.equal(parsed.ok, false);
      assert.match(parsed.ok ? '' : parsed.message, message);
    });
  }
});
