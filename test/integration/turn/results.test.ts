import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { StreamEvent } from '../../../src/core/stream/events';
import type { ToolCallResult } from '../../../src/core/tools/toolSource';
import { reply, text, toolUse } from '../../fixtures/scriptedMessagesApi';
import { harness, lastToolResults, offeredIn, signal, type FakeServer, type Harness } from './harness';

/** A build log of 1,000 lines, about 14,000 estimated tokens (over the default threshold), with one line that matters near its end. */
const LOG = Array.from({ length: 1_000 }, (_, i) => (i === 911 ? 'ERROR disk quota exceeded for INV-88213 at /var/cache/build' : `step ${i + 1}: compiled module ${i + 1} without warnings`)).join('\n');
const ok = (t: string): ToolCallResult => ({ content: [{ type: 'text', text: t }], isError: false });

const servers = (handler = (): Promise<ToolCallResult> => Promise.resolve(ok(LOG))): Record<string, FakeServer> => ({
  ci: { running: true, tools: [{ name: 'build_log', readOnly: true, handler }, { name: 'test_log', readOnly: true, handler }] },
});
const unattended = { 'ci__*': { enable: 'on', run: 'unattended' } };
type ToolResult = Extract<StreamEvent, { type: 'tool_result' }>;
const resultsOf = (h: Harness): ToolResult[] => h.conversation.events().filter((e): e is ToolResult => e.type === 'tool_result');

describe('tool results the model can come back to', function () {
  this.timeout(20_000);
  let h: Harness | undefined;
  afterEach(async () => h?.close());

  it('keeps a long result whole, sends a bounded view, offers read_result, and the model finds the line by grep', async () => {
    h = await harness({
      servers: servers(),
      tools: unattended,
      script: [reply(toolUse('t1', 'ci__build_log', {})), reply(toolUse('t2', 'read_result', { ref: 'r1', grep: 'inv-88213' })), reply(text('The build failed on the disk quota.'))],
    });
    await h.session.send('Why did the build fail?', signal());
    const [view] = lastToolResults(h.api.requests[1]?.body);
    assert.match(view?.text ?? '', /^\[Result r1 of ci__build_log, status: truncated\. The whole result is 46,798 characters .*shown here: lines 1–\d+ and [\d,]+–1,000 of 1,000\./);
    assert.doesNotMatch(view?.text ?? '', /INV-88213/, 'the line that matters is not in the view');
    assert.ok((view?.text.length ?? 0) <= 2_000 * 3.5, 'the view is within the default budget');
    assert.ok(offeredIn(h.api.requests[1]?.body).includes('read_result'), 'read_result is offered once a result was kept');
    assert.ok(!offeredIn(h.api.requests[0]?.body).includes('read_result'), '…and not before');
    const [found] = lastToolResults(h.api.requests[2]?.body);
    assert.match(found?.text ?? '', /^\[r1: 1 line contains "inv-88213" .*\n910- step 910.*\n912: ERROR disk quota exceeded for INV-88213 at \/var\/cache\/build\n/s);
    assert.deepEqual(resultsOf(h)[0]?.kept, { ref: 'r1', status: 'truncated', shownChars: resultsOf(h)[0]?.kept?.shownChars, totalChars: LOG.length });
    const stored = JSON.parse(await readFile(join(dirname(h.conversation.file), `${h.conversation.id}.results`, 'r1.json'), 'utf8')) as { content: { text: string }[] };
    assert.equal(stored.content[0]?.text, LOG, 'the whole result is kept beside the stream');
  });

  it('after a reload the kept result is still read back, and every request still extends the one before', async () => {
    h = await harness({ servers: servers(), tools: unattended, script: [reply(toolUse('t1', 'ci__build_log', {})), reply(text('It is long.'))] });
    await h.session.send('Show me the build log.', signal());
    const reopened = await h.reopen();
    h.api.enqueue(reply(toolUse('t2', 'read_result', { ref: 'r1', offset: 998 })), reply(text('Those are the last lines.')));
    const result = await reopened.send('What are its last lines?', signal());
    assert.equal(result.reason, 'done');
    assert.deepEqual(h.api.requests.filter((r) => r.rejected !== undefined).map((r) => r.rejected), []);
    assert.ok(offeredIn(h.api.requests[2]?.body).includes('read_result'));
    const [page] = lastToolResults(h.api.requests[3]?.body);
    assert.equal(page?.text, '[r1: lines 998–1,000 of 1,000; that is the end of the result.]\nstep 998: compiled module 998 without warnings\nstep 999: compiled module 999 without warnings\nstep 1000: compiled module 1000 without warnings');
  });

  it('read_result reads nothing but this conversation\'s kept results: an unknown ref or a path is an error', async () => {
    h = await harness({
      servers: servers(),
      tools: unattended,
      script: [
        reply(toolUse('t1', 'ci__build_log', {})),
        reply(toolUse('t2', 'read_result', { ref: 'r2' }), toolUse('t3', 'read_result', { ref: '../../settings.json' })),
        reply(text('done')),
      ],
    });
    await h.session.send('Read it all.', signal());
    const [unknown, path] = lastToolResults(h.api.requests[2]?.body);
    assert.deepEqual([unknown?.isError, path?.isError], [true, true]);
    assert.equal(unknown?.text, 'read_result: this conversation kept no result "r2". Its kept results: r1.');
    assert.match(path?.text ?? '', /^read_result: "ref" must be the reference a shortened result opens with, such as "r3" \(got "\.\.\/\.\.\/settings\.json"\)\.$/);
  });

  it('parallel calls keep their results under refs of their own', async () => {
    h = await harness({ servers: servers(), tools: unattended, script: [reply(toolUse('t1', 'ci__build_log', {}), toolUse('t2', 'ci__test_log', {})), reply(text('both long'))] });
    await h.session.send('Both logs, please.', signal());
    assert.deepEqual(resultsOf(h).map((r) => [r.toolUseId, r.kept?.ref]), [['t1', 'r1'], ['t2', 'r2']]);
  });

  it('a tool\'s resultTokens overrides the settings: "whole" sends it all, 0 only the reference', async () => {
    h = await harness({
      servers: servers(),
      tools: { ...unattended, ci__build_log: { resultTokens: 'whole' }, ci__test_log: { resultTokens: 0 } },
      script: [reply(toolUse('t1', 'ci__build_log', {}), toolUse('t2', 'ci__test_log', {})), reply(text('ok'))],
    });
    await h.session.send('Both logs, please.', signal());
    const [whole, reference] = lastToolResults(h.api.requests[1]?.body);
    assert.equal(whole?.text, LOG);
    assert.match(reference?.text ?? '', /^\[Result r1 of ci__test_log, status: reference-only\. .*shown here: nothing \(only this reference\)\. It is kept whole: call read_result/);
    assert.deepEqual(resultsOf(h).map((r) => r.kept?.status), [undefined, 'reference-only']);
  });

  it('a long error is shortened too, marked as an error, and still kept', async () => {
    h = await harness({ servers: servers(() => Promise.resolve({ content: [{ type: 'text', text: LOG }], isError: true })), tools: unattended, script: [reply(toolUse('t1', 'ci__build_log', {})), reply(text('it failed'))] });
    await h.session.send('Build log?', signal());
    const [view] = lastToolResults(h.api.requests[1]?.body);
    assert.equal(view?.isError, true);
    assert.match(view?.text ?? '', /^\[Result r1 of ci__build_log, status: error\. The call failed, and its error output is long\./);
    assert.equal(resultsOf(h)[0]?.kept?.status, 'error');
  });

  it('when the whole cannot be kept, the view says the rest is gone and read_result is not offered', async () => {
    h = await harness({ servers: servers(), tools: unattended, script: [reply(toolUse('t1', 'ci__build_log', {})), reply(text('cut'))] });
    // A file where the results folder would go: the store cannot write.
    await writeFile(join(dirname(h.conversation.file), `${h.conversation.id}.results`), 'not a folder');
    await h.session.send('Build log?', signal());
    const [view] = lastToolResults(h.api.requests[1]?.body);
    assert.match(view?.text ?? '', /\[TRUNCATED: the result was 46,798 characters and only [\d,]+ are shown; the rest could not be kept \(.+\) and is gone\. Call the tool again with narrower arguments/);
    assert.equal(resultsOf(h)[0]?.kept, undefined);
    assert.ok(!offeredIn(h.api.requests[1]?.body).includes('read_result'));
  });
});
