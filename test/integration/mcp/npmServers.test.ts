import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { McpManager } from '../../../src/mcp/manager';
import { assertGone, disposeAll, manager, nodeServer, npmServer, signal, textOf } from './helpers';

describe('MCP manager against the npm reference servers', () => {
  let m: McpManager;
  let dir: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quiver-mcp-'));
    writeFileSync(join(dir, 'hello.txt'), 'hello from the filesystem server\n');
    m = manager().manager;
    m.applyConfig([
      nodeServer('everything', npmServer('everything')),
      nodeServer('filesystem', npmServer('filesystem'), [dir]),
      nodeServer('memory', npmServer('memory'), [], { env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') } }),
    ]);
    await m.whenIdle();
  });

  after(async () => {
    const pids = m.statuses().map((s) => s.pid);
    await disposeAll();
    for (const pid of pids) await assertGone(pid);
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts all three and lists their tools under qualified names', () => {
    assert.deepEqual(m.statuses().map((s) => [s.name, s.state]), [['everything', 'running'], ['filesystem', 'running'], ['memory', 'running']]);
    const names = new Set(m.tools().map((t) => t.name));
    for (const name of ['everything__echo', 'everything__get-tiny-image', 'filesystem__read_text_file', 'memory__create_entities', 'memory__read_graph']) {
      assert.ok(names.has(name), `missing ${name}`);
    }
    for (const tool of m.tools()) {
      assert.equal(tool.inputSchema.type, 'object');
      assert.match(tool.name, /^[a-zA-Z0-9_-]{1,64}$/);
    }
  });

  it('keeps titles and annotations as given', () => {
    const structured = m.tools().find((t) => t.name === 'everything__get-structured-content');
    assert.equal(structured?.title, 'Get Structured Content Tool');
    assert.deepEqual(structured?.annotations, { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
  });

  it('everything: text, image and structured results', async () => {
    assert.equal(textOf(await m.call('everything__echo', { message: 'hi' }, signal())), 'Echo: hi');
    const image = await m.call('everything__get-tiny-image', {}, signal());
    assert.ok(image.content.some((c) => c.type === 'image' && c.mimeType === 'image/png'));
    const weather = await m.call('everything__get-structured-content', { location: 'Chicago' }, signal());
    assert.equal(weather.isError, false);
    assert.match(textOf(weather), /"temperature":\s*36/);
  });

  it('filesystem: reads a file and reports access outside its roots as an error', async () => {
    assert.equal(textOf(await m.call('filesystem__read_text_file', { path: join(dir, 'hello.txt') }, signal())), 'hello from the filesystem server\n');
    const denied = await m.call('filesystem__read_text_file', { path: '/etc/hostname' }, signal());
    assert.equal(denied.isError, true);
    assert.match(textOf(denied), /filesystem/);
  });

  it('memory: writes and reads back the knowledge graph', async () => {
    const created = await m.call('memory__create_entities', { entities: [{ name: 'Quiver', entityType: 'project', observations: ['an MCP client'] }] }, signal());
    assert.equal(created.isError, false);
    assert.match(textOf(await m.call('memory__read_graph', {}, signal())), /"name":\s*"Quiver"/);
  });
});
