import assert from 'node:assert/strict';
import type { McpManager } from '../../../src/mcp/manager';
import { disposeAll, fixture, manager, nodeServer, signal, textOf } from './helpers';

describe('MCP tool calls', () => {
  let m: McpManager;

  before(async () => {
    m = manager({ callTimeoutMs: 800, maxResultChars: 5000 }).manager;
    m.applyConfig([nodeServer('faulty', fixture('faulty-tools-server.mjs'))]);
    await m.whenIdle();
  });
  after(disposeAll);

  it('returns text', async () => {
    assert.deepEqual(await m.call('faulty__echo', { text: 'hi' }, signal()), { isError: false, content: [{ type: 'text', text: 'echo: hi' }] });
  });

  it('returns images beside text', async () => {
    const result = await m.call('faulty__image', {}, signal());
    assert.deepEqual(result.content.map((c) => c.type), ['image', 'text']);
    assert.equal(result.content[0]?.type === 'image' ? result.content[0].mimeType : '', 'image/png');
  });

  it('renders structured-only content as compact JSON', async () => {
    assert.equal(textOf(await m.call('faulty__structured', {}, signal())), '{"temperature":21.5,"unit":"C"}');
  });

  it('passes an MCP error result on, headed with what failed', async () => {
    const result = await m.call('faulty__fail', {}, signal());
    assert.equal(result.isError, true);
    assert.equal(textOf(result), 'The tool "fail" of MCP server "faulty" reported an error:\ndisk quota exceeded');
  });

  it('reports a thrown server error without its stack trace', async () => {
    const result = await m.call('faulty__throw', {}, signal());
    assert.equal(result.isError, true);
    assert.match(textOf(result), /database unreachable/);
    assert.doesNotMatch(textOf(result), /\bat connect\b|db\.js/);
  });

  it('reports arguments the server rejects', async () => {
    const result = await m.call('faulty__echo', { text: 42 }, signal());
    assert.equal(result.isError, true);
    assert.match(textOf(result), /faulty/);
  });

  it('cuts a very large result with a marker saying where and how much', async () => {
    const result = await m.call('faulty__big', { lines: 5000 }, signal());
    const text = textOf(result);
    assert.equal(result.isError, false);
    assert.ok(text.startsWith('line 1\nline 2\n'));
    assert.match(text, /\[TRUNCATED: the tool result was 48892 characters; only the first 5000 are shown and the remaining 43892 were cut\./);
  });

  it('times out a hanging call with a clear error and stays usable', async () => {
    const started = Date.now();
    const result = await m.call('faulty__hang', {}, signal());
    assert.ok(Date.now() - started < 5000);
    assert.equal(result.isError, true);
    assert.match(textOf(result), /did not answer within 0\.8 s and the call was cancelled/);
    assert.equal(textOf(await m.call('faulty__echo', { text: 'after' }, signal())), 'echo: after');
  });

  it('rejects when the caller aborts', async () => {
    const controller = new AbortController();
    const call = m.call('faulty__hang', {}, controller.signal);
    setTimeout(() => controller.abort(new Error('user pressed stop')), 100);
    await assert.rejects(call, /user pressed stop/);
    const aborted = new AbortController();
    aborted.abort(new Error('already stopped'));
    await assert.rejects(m.call('faulty__echo', { text: 'x' }, aborted.signal), /already stopped/);
  });

  it('answers an unknown tool name with an error result', async () => {
    const result = await m.call('faulty__nope', {}, signal());
    assert.equal(result.isError, true);
    assert.match(textOf(result), /No MCP tool is named "faulty__nope"/);
  });
});
