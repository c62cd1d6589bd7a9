import assert from 'node:assert/strict';
import { fitsWhole, shortenedView, unkeptView } from '../../../src/core/results/resultView';
import { estimateResultTokens, resultText } from '../../../src/core/results/resultText';
import type { ToolResultContent } from '../../../src/core/tools/toolSource';

const text = (t: string): ToolResultContent => ({ type: 'text', text: t });
const image = (bytes: number): ToolResultContent => ({ type: 'image', mimeType: 'image/png', data: 'A'.repeat(Math.ceil((bytes * 4) / 3)) });
const viewText = (content: readonly ToolResultContent[]): string => content.filter((c) => c.type === 'text').map((c) => (c.type === 'text' ? c.text : '')).join('\n');
const records = (n: number): { id: string; note: string }[] => Array.from({ length: n }, (_, i) => ({ id: `ID-${i + 1}`, note: `record ${i + 1} of the listing, valid and irrelevant` }));

describe('a result too long to send whole: its view', () => {
  it('goes whole up to the threshold, and a threshold below the budget acts as the budget', () => {
    const t = [text('x'.repeat(3_500 * 3))]; // about 3,000 tokens
    assert.equal(fitsWhole(t, { budgetTokens: 2_000, thresholdTokens: 4_000 }), true);
    assert.equal(fitsWhole(t, { budgetTokens: 2_000, thresholdTokens: 2_000 }), false);
    assert.equal(fitsWhole(t, { budgetTokens: 4_000, thresholdTokens: 0 }), true);
  });

  it('cuts a JSON array at element boundaries, head and tail, and says how many elements it left out', () => {
    const whole = JSON.stringify(records(2_000));
    const view = shortenedView([text(whole)], false, 1_000, 'db__query', 'r4');
    const [header, body] = view.content.map((c) => (c.type === 'text' ? c.text : ''));
    assert.match(header ?? '', /^\[Result r4 of db__query, status: truncated\. The whole result is [\d,]+ characters .*shown here: elements 1–\d+ and [\d,]+–2,000 of 2,000\. It is kept whole: call read_result with \{"ref": "r4"/);
    const lines = (body ?? '').split('\n');
    assert.equal(lines[0], '[');
    assert.equal(lines.at(-1), ']');
    const gap = lines.find((l) => l.startsWith('[… elements'));
    assert.match(gap ?? '', /^\[… elements \d+–[\d,]+ of 2,000 not shown: [\d,]+ elements …\]$/);
    // Every other line is one whole element, as compact JSON.
    for (const line of lines.slice(1, -1).filter((l) => l !== gap)) assert.ok((JSON.parse(line.replace(/,$/, '')) as { id: string }).id.startsWith('ID-'), line);
    assert.equal(view.kept.status, 'truncated');
    assert.equal(view.kept.totalChars, whole.length);
  });

  it('cuts the array a JSON object is mostly made of, keeping the fields around it', () => {
    const whole = JSON.stringify({ total_count: 2_000, incomplete: false, items: records(2_000) }, null, 2);
    const body = viewText(shortenedView([text(whole)], false, 1_000, 'gh__search', 'r1').content);
    assert.match(body, /\{"total_count":2000,"incomplete":false,"items":\[\n\{"id":"ID-1",/);
    assert.match(body, /of the 2,000 in "items"/);
    assert.match(body, /\{"id":"ID-2000","note":"[^"]+"\}\n\]\}$/);
  });

  it('cuts other text at line boundaries: the head, a marker naming the lines and characters left out, the tail', () => {
    const lines = Array.from({ length: 5_000 }, (_, i) => `line ${i + 1}: compiling module ${i + 1}`);
    const view = shortenedView([text(lines.join('\n'))], false, 500, 'shell__run', 'r2');
    const body = view.content[1]?.type === 'text' ? view.content[1].text : '';
    const shown = body.split('\n');
    assert.equal(shown[0], 'line 1: compiling module 1');
    assert.equal(shown.at(-1), 'line 5000: compiling module 5000');
    const gap = shown.find((l) => l.startsWith('[…'));
    assert.match(gap ?? '', /^\[… lines (\d+)–([\d,]+) not shown: ([\d,]+) lines, [\d,]+ characters …\]$/);
    for (const line of shown.filter((l) => l !== gap)) assert.ok(lines.includes(line), `${line} is a whole line of the result`);
    assert.match(viewText(view.content), /shown here: lines 1–\d+ and [\d,]+–5,000 of 5,000\./);
  });

  it('a view stays within its budget in estimated tokens, at every size and budget', () => {
    for (const budget of [300, 1_000, 2_000, 8_000]) {
      for (const size of [40_000, 400_000]) {
        for (const whole of [JSON.stringify(records(size / 60)), JSON.stringify({ ['"key'.repeat(100)]: records(size / 60) }), 'w'.repeat(size), Array.from({ length: size / 40 }, (_, i) => `row ${i} ${'v'.repeat(30)}`).join('\n')]) {
          const view = shortenedView([text(whole)], false, budget, 'a_rather_long_server_name__a_rather_long_tool_name', 'r123456789');
          assert.ok(estimateResultTokens(view.content) <= budget, `${estimateResultTokens(view.content)} tokens for a budget of ${budget}`);
          assert.ok(view.kept.shownChars <= whole.length);
        }
      }
    }
  });

  it('cuts one long line inside it, never splitting a surrogate pair, and points to reading by character', () => {
    const whole = '😀'.repeat(60_000);
    const view = shortenedView([text(whole)], false, 1_000, 'x__y', 'r1');
    const body = view.content[1]?.type === 'text' ? view.content[1].text : '';
    assert.ok(!/[\ud800-\udbff](?![\udc00-\udfff])/.test(body), 'no lone high surrogate');
    assert.match(viewText(view.content), /line 1 \(its first [\d,]+ of 120,000 characters\).*"unit": "characters"/s);
  });

  it('shows only the reference at a budget of 0, and marks a failed call\'s result as an error', () => {
    const whole = 'trace line\n'.repeat(20_000);
    const ref = shortenedView([text(whole)], false, 0, 'x__y', 'r9');
    assert.equal(ref.kept.status, 'reference-only');
    assert.equal(ref.content.length, 1);
    assert.match(viewText(ref.content), /status: reference-only\..*shown here: nothing \(only this reference\)/);
    const failed = shortenedView([text(whole)], true, 1_000, 'x__y', 'r10');
    assert.equal(failed.kept.status, 'error');
    assert.match(viewText(failed.content), /status: error\. The call failed/);
  });

  it('attaches the images that fit in half of the budget and names the rest with their size', () => {
    const content = [text('caption'), image(10_000), image(20_000), text('z'.repeat(50_000))];
    const few = shortenedView(content, false, 4_000, 'browser__shot', 'r1');
    assert.equal(few.content.filter((c) => c.type === 'image').length, 1);
    assert.match(viewText(few.content), /of its 2 images, the first 1 is attached below/);
    const none = shortenedView(content, false, 2_000, 'browser__shot', 'r2');
    assert.equal(none.content.filter((c) => c.type === 'image').length, 0);
    assert.match(viewText(none.content), /its 2 images are named, not attached/);
    assert.match(resultText(content), /^caption\n\[image image\/png, 10,00\d bytes\]\n\[image image\/png, 20,00\d bytes\]\nz/);
  });

  it('a view whose whole could not be kept says the rest is gone and how to get it, and offers no reference', () => {
    const view = shortenedView([text('row\n'.repeat(40_000))], false, 1_000, 'x__y', 'r1');
    const unkept = viewText(unkeptView(view, 'ENOSPC: no space left on device'));
    assert.doesNotMatch(unkept, /read_result|r1/);
    assert.match(unkept, /\[TRUNCATED: the result was 160,000 characters and only [\d,]+ are shown; the rest could not be kept \(ENOSPC: no space left on device\) and is gone\. Call the tool again with narrower arguments/);
  });
});
