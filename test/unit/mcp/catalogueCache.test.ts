import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CachedCatalogue, CatalogueCache } from '../../../src/mcp/catalogue';
import type { RemoteServerConfig, StdioServerConfig } from '../../../src/mcp/config';

const stdio: StdioServerConfig = { transport: 'stdio', name: 'gh', command: 'npx', args: ['-y', 'server-github'], env: { GITHUB_TOKEN: 'secret-token' }, cwd: undefined, source: { kind: 'userSettings' } };
const remote: RemoteServerConfig = { transport: 'http', name: 'remote', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer secret-header' }, source: { kind: 'userSettings' } };
const catalogue: CachedCatalogue = {
  server: { name: 'github-mcp', version: '1.2.3' },
  listedAt: Date.parse('2026-12-01T10:00:00.000Z'),
  tools: [{ name: 'create_issue', description: 'Create an issue', inputSchema: { type: 'object', properties: { title: { type: 'string' } } }, annotations: { readOnlyHint: false } }],
};

describe('CatalogueCache', () => {
  let dir: string;
  let warnings: string[];
  let cache: CatalogueCache;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'quiver-catalogue-'));
    warnings = [];
    cache = new CatalogueCache(join(dir, 'nested'), { info: () => undefined, warn: (m) => warnings.push(m), error: (m) => warnings.push(m) });
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  async function onlyFile(): Promise<string> {
    const files = await readdir(join(dir, 'nested'));
    assert.equal(files.length, 1, `files: ${files.join(', ')}`);
    return join(dir, 'nested', files[0] ?? '');
  }

  it('reads back what it wrote, with the server name and version and when it was listed', async () => {
    assert.equal(await cache.read(stdio), undefined);
    await cache.write(stdio, catalogue);
    assert.deepEqual(await cache.read(stdio), catalogue);
    await cache.write(remote, { ...catalogue, server: undefined });
    assert.deepEqual(await cache.read(remote), { ...catalogue, server: undefined });
    assert.deepEqual(warnings, []);
  });

  it('keys on the launch (command, args, env, cwd; URL, headers), not on the name or where it was configured', async () => {
    await cache.write(stdio, catalogue);
    assert.ok(await cache.read({ ...stdio, name: 'renamed', source: { kind: 'mcpJson', file: '/w/.vscode/mcp.json' } }));
    assert.ok(await cache.read({ ...stdio, env: { GITHUB_TOKEN: 'secret-token' } }), 'same env, rebuilt');
    for (const changed of [{ ...stdio, command: 'node' }, { ...stdio, args: ['-y', 'server-github@2'] }, { ...stdio, env: { GITHUB_TOKEN: 'other' } }, { ...stdio, cwd: '/tmp' }]) {
      assert.equal(await cache.read(changed), undefined, JSON.stringify(changed));
    }
    await cache.write(remote, catalogue);
    assert.equal(await cache.read({ ...remote, url: 'https://mcp.example.com/other' }), undefined);
    assert.equal(await cache.read({ ...remote, headers: { Authorization: 'Bearer rotated' } }), undefined);
    assert.equal(await cache.read({ ...remote, transport: 'sse' }), undefined);
  });

  it('writes no secret from env or headers to disk', async () => {
    await cache.write(stdio, catalogue);
    const text = await readFile(await onlyFile(), 'utf8');
    assert.doesNotMatch(text, /secret-token|server-github|npx/);
  });

  it('a later write replaces the entry: the last list written wins even when writes overlap', async () => {
    const lists = Array.from({ length: 5 }, (_, i) => ({ ...catalogue, server: { name: 'github-mcp', version: `1.2.${i}` }, tools: catalogue.tools.map((t) => ({ ...t, name: `tool_${i}` })) }));
    await Promise.all(lists.map((list) => cache.write(stdio, list)));
    assert.deepEqual(await cache.read(stdio), lists[4]);
    assert.equal((await readdir(join(dir, 'nested'))).length, 1, 'no partial file is left');
  });

  it('ignores, and logs, a file that is not JSON, not a catalogue, damaged, or written for another launch', async () => {
    await cache.write(stdio, catalogue);
    const file = await onlyFile();
    const good = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    const bad = ['{"format": 1, "tools": [', JSON.stringify({ ...good, format: 99 }), JSON.stringify({ ...good, listedAt: 'yesterday' }), JSON.stringify({ ...good, tools: [{ description: 'no name' }] }), JSON.stringify({ ...good, launch: 'other' })];
    for (const text of bad) {
      await writeFile(file, text);
      assert.equal(await cache.read(stdio), undefined, text);
    }
    assert.equal(warnings.length, bad.length);
    assert.match(warnings[0] ?? '', /^\[gh\] ignoring its cached tool catalogue .*\.json \(not JSON: .*\); the server will start to list its tools$/);
    assert.match(warnings[3] ?? '', /damaged tool list: tool #1 skipped: it has no name/);
    assert.match(warnings[4] ?? '', /written for another launch configuration/);
  });

  it('a cache it cannot write is logged, never thrown', async () => {
    await writeFile(join(dir, 'nested'), 'a file where the folder should be');
    await cache.write(stdio, catalogue);
    assert.match(warnings[0] ?? '', /^\[gh\] could not write its tool catalogue to /);
    assert.equal(await cache.read(stdio), undefined);
  });
});
