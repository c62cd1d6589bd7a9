import assert from 'node:assert/strict';
import { mergeServerConfigs, parseMcpJson, parseQuiverServers } from '../../../src/mcp/parseServerConfigs';
import { sameServerConfig, type ConfigSource } from '../../../src/mcp/serverConfig';

const user: ConfigSource = { kind: 'userSettings' };
const workspace: ConfigSource = { kind: 'workspaceSettings' };
const mcpJson: ConfigSource = { kind: 'mcpJson', file: '/work/project/.vscode/mcp.json' };
const context = { env: { TOKEN: 'secret', HOME: '/home/me' }, workspaceFolder: '/work/project', userHome: '/home/me' };

describe('quiver.mcpServers parsing', () => {
  it('parses stdio and remote servers with their source and expanded variables', () => {
    const parsed = parseQuiverServers(
      {
        fs: { command: 'npx', args: ['-y', 'server-filesystem', '${workspaceFolder}'], env: { KEY: '${env:TOKEN}' } },
        remote: { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer ${env:TOKEN}' } },
      },
      user,
      context,
    );
    assert.deepEqual(parsed.errors, []);
    assert.deepEqual(parsed.servers, [
      { transport: 'stdio', name: 'fs', command: 'npx', args: ['-y', 'server-filesystem', '/work/project'], env: { KEY: 'secret' }, cwd: '/work/project', source: user },
      { transport: 'http', name: 'remote', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer secret' }, source: user },
    ]);
  });

  it('reports a bad entry naming the server and key, and keeps the good ones', () => {
    const parsed = parseQuiverServers(
      {
        good: { command: 'node', args: ['server.js'] },
        badArgs: { command: 'node', args: 'server.js' },
        typo: { comand: 'node' },
        both: { command: 'node', url: 'https://x' },
        badEnv: { command: 'node', env: { KEY: '${env:NOPE}' } },
        badUrl: { url: 'ftp://example.com' },
        empty: { command: '' },
      },
      workspace,
      context,
    );
    assert.deepEqual(parsed.servers.map((s) => s.name), ['good']);
    const messages = Object.fromEntries(parsed.errors.map((e) => [e.server, e.message]));
    assert.match(messages.badArgs ?? '', /MCP server "badArgs" in workspace settings \(quiver.mcpServers\): "args" must be an array of strings/);
    assert.match(messages.typo ?? '', /needs "command" .* or "url"/);
    assert.match(messages.both ?? '', /both "command" and "url"/);
    assert.match(messages.badEnv ?? '', /"env.KEY": environment variable NOPE is not set/);
    assert.match(messages.badUrl ?? '', /"url" must be an http:\/\/ or https:\/\/ URL/);
    assert.match(messages.empty ?? '', /"command" must not be empty/);
  });

  it('names unknown keys so typos are easy to fix', () => {
    const parsed = parseQuiverServers({ s: { command: 'node', arg: ['x'] } }, user, context);
    assert.match(parsed.errors[0]?.message ?? '', /unknown key "arg"/);
  });

  it('rejects a value that is not an object', () => {
    assert.match(parseQuiverServers(['x'], user, context).errors[0]?.message ?? '', /must be an object/);
    assert.deepEqual(parseQuiverServers(undefined, user, context), { servers: [], errors: [] });
  });
});

describe('.vscode/mcp.json parsing', () => {
  it('reads servers of each type, infers the type, and ignores inputs and unknown fields', () => {
    const parsed = parseMcpJson(
      {
        inputs: [{ id: 'key', type: 'promptString' }],
        servers: {
          memory: { type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'], envFile: '.env' },
          inferred: { command: 'node', cwd: '${workspaceFolder}/tools' },
          api: { type: 'http', url: 'http://localhost:3001/mcp', headers: { 'X-Key': '${env:TOKEN}' } },
          legacy: { type: 'sse', url: 'http://localhost:3001/sse' },
        },
      },
      mcpJson,
      context,
    );
    assert.deepEqual(parsed.errors, []);
    assert.deepEqual(parsed.servers.map((s) => [s.name, s.transport, s.source.kind]), [
      ['memory', 'stdio', 'mcpJson'], ['inferred', 'stdio', 'mcpJson'], ['api', 'http', 'mcpJson'], ['legacy', 'sse', 'mcpJson'],
    ]);
    assert.equal(parsed.servers[1]?.transport === 'stdio' ? parsed.servers[1].cwd : '', '/work/project/tools');
  });

  it('reports missing fields for the declared type and inputs it cannot resolve', () => {
    const parsed = parseMcpJson(
      { servers: { a: { type: 'http' }, b: { type: 'stdio' }, c: { type: 'ws', url: 'x' }, d: { command: 'x', env: { K: '${input:key}' } } } },
      mcpJson,
      context,
    );
    const messages = parsed.errors.map((e) => e.message);
    assert.match(messages[0] ?? '', /"a" in \/work\/project\/.vscode\/mcp.json: "url" is required for type "http"/);
    assert.match(messages[1] ?? '', /"command" is required for a stdio server/);
    assert.match(messages[2] ?? '', /"type" must be "stdio", "http" or "sse"/);
    assert.match(messages[3] ?? '', /"env.K": \$\{input:key\} refers to an mcp.json input/);
  });

  it('reports a file whose servers is not an object', () => {
    assert.match(parseMcpJson({ servers: [] }, mcpJson, context).errors[0]?.message ?? '', /"servers" must be an object/);
  });
});

describe('merging configuration layers', () => {
  const layer = (source: ConfigSource, command: string) => parseQuiverServers({ shared: { command } }, source, context);

  it('lets a higher layer replace a server of the same name', () => {
    const merged = mergeServerConfigs([layer(user, 'user-cmd'), layer(workspace, 'ws-cmd')], true);
    assert.deepEqual(merged.servers.map((s) => (s.transport === 'stdio' ? s.command : '')), ['ws-cmd']);
  });

  it('keeps the user server when the workspace is untrusted', () => {
    const merged = mergeServerConfigs([layer(user, 'user-cmd'), layer(workspace, 'ws-cmd')], false);
    assert.deepEqual(merged.servers.map((s) => [s.transport === 'stdio' ? s.command : '', s.source.kind]), [['user-cmd', 'userSettings']]);
  });

  it('treats env key order as the same config but a changed arg as different', () => {
    const a = parseQuiverServers({ s: { command: 'n', env: { A: '1', B: '2' } } }, user, context).servers[0];
    const b = parseQuiverServers({ s: { command: 'n', env: { B: '2', A: '1' } } }, user, context).servers[0];
    const c = parseQuiverServers({ s: { command: 'n', args: ['x'], env: { A: '1', B: '2' } } }, user, context).servers[0];
    assert.ok(a && b && c);
    assert.ok(sameServerConfig(a, b));
    assert.ok(!sameServerConfig(a, c));
  });
});
