import assert from 'node:assert/strict';
import { type ConfigSource, launchIdentity, mergeServerConfigs, parseMcpJson, parseQuiverServers, sameServerConfig, type ServerConfig } from '../../../src/mcp/config';

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

describe('the oauth block of a remote server', () => {
  const oauthContext = { ...context, env: { ...context.env, LINEAR_ID: 'id-from-env', LINEAR_SECRET: 's3cret' } };
  const parseOne = (oauth: unknown, source: ConfigSource = user): ReturnType<typeof parseQuiverServers> =>
    parseQuiverServers({ linear: { url: 'https://mcp.linear.app/mcp', oauth } }, source, oauthContext);
  const errorOf = (oauth: unknown): string => {
    const parsed = parseOne(oauth);
    assert.deepEqual(parsed.servers, []);
    assert.equal(parsed.errors.length, 1);
    return parsed.errors[0]?.message ?? '';
  };

  it('expands ${env:...} in clientId and clientSecret and keeps the rest as written', () => {
    const parsed = parseOne({
      clientId: '${env:LINEAR_ID}',
      clientSecret: '${env:LINEAR_SECRET}',
      tokenEndpointAuthMethod: 'client_secret_post',
      scopes: ['read', 'write'],
      clientMetadataUrl: 'https://example.com/quiver-client.json',
    });
    assert.deepEqual(parsed.errors, []);
    assert.deepEqual(parsed.servers, [
      {
        transport: 'http',
        name: 'linear',
        url: 'https://mcp.linear.app/mcp',
        headers: {},
        oauth: { clientId: 'id-from-env', clientSecret: 's3cret', tokenEndpointAuthMethod: 'client_secret_post', scopes: ['read', 'write'], clientMetadataUrl: 'https://example.com/quiver-client.json' },
        source: user,
      },
    ]);
  });

  it('leaves oauth out of a server without the block', () => {
    const parsed = parseQuiverServers({ plain: { url: 'https://x.example.com/mcp' } }, user, oauthContext);
    assert.equal(parsed.servers.length, 1);
    assert.equal('oauth' in (parsed.servers[0] ?? {}), false);
  });

  it('names an unset variable in the secret', () => {
    assert.match(errorOf({ clientId: 'id', clientSecret: '${env:NOPE}' }), /^MCP server "linear" in user settings \(quiver.mcpServers\): "oauth.clientSecret": environment variable NOPE is not set;/);
    assert.match(errorOf({ clientId: '${env:NOPE_ID}' }), /"oauth.clientId": environment variable NOPE_ID is not set/);
  });

  it('names an unknown key and the block it is in', () => {
    assert.match(errorOf({ clientId: 'id', client_secret: 'x' }), /^MCP server "linear" in user settings \(quiver.mcpServers\): "oauth" has unknown key "client_secret"; remove it/);
  });

  it('lists the accepted token endpoint auth methods', () => {
    assert.equal(
      errorOf({ clientId: 'id', clientSecret: 'x', tokenEndpointAuthMethod: 'private_key_jwt' }),
      'MCP server "linear" in user settings (quiver.mcpServers): "oauth.tokenEndpointAuthMethod" must be one of "client_secret_basic", "client_secret_post", "none"',
    );
  });

  it('wants the client metadata URL to be https with a path', () => {
    for (const clientMetadataUrl of ['http://example.com/client.json', 'https://example.com/', 'https://example.com', 'not a url']) {
      assert.match(errorOf({ clientMetadataUrl }), /"oauth.clientMetadataUrl" must be an https:\/\/ URL with a path/, clientMetadataUrl);
    }
    assert.deepEqual(parseOne({ clientMetadataUrl: 'https://example.com/c.json' }).errors, []);
  });

  it('refuses a client secret without a client ID', () => {
    assert.match(errorOf({ clientSecret: '${env:LINEAR_SECRET}' }), /"oauth.clientSecret" needs "oauth.clientId"/);
  });

  it('takes a secret-sending auth method only for a registered client; its secret may be in the secret store (told at sign-in)', () => {
    assert.match(errorOf({ tokenEndpointAuthMethod: 'client_secret_post' }), /"oauth.tokenEndpointAuthMethod" "client_secret_post" is for a client you registered: add "oauth.clientId"/);
    assert.deepEqual(parseOne({ clientId: 'id', tokenEndpointAuthMethod: 'client_secret_basic' }).errors, []);
    assert.deepEqual(parseOne({ clientId: 'id', tokenEndpointAuthMethod: 'none' }).errors, []);
  });

  it('a service account needs its client ID and a secret or a private key, not both', () => {
    assert.match(errorOf({ grantType: 'client_credentials', clientSecret: 'x' }), /"oauth.clientSecret" needs "oauth.clientId"/);
    assert.match(errorOf({ grantType: 'client_credentials' }), /"oauth.grantType" "client_credentials" signs in as the client itself: add "oauth.clientId"/);
    assert.deepEqual(parseOne({ grantType: 'client_credentials', clientId: 'svc' }).errors, [], 'its secret may be in the secret store');
    assert.match(errorOf({ clientId: 'svc', clientSecret: 'x', privateKey: 'pem' }), /two ways to authenticate the client: keep one/);
    assert.match(errorOf({ grantType: 'password' }), /"oauth.grantType" must be one of "authorization_code", "client_credentials"/);
    assert.match(errorOf({ clientId: 'svc', privateKey: 'pem', signingAlgorithm: 'none' }), /"oauth.signingAlgorithm" must be a JWS algorithm such as "RS256"/);
    assert.deepEqual(parseOne({ grantType: 'client_credentials', clientId: 'svc', privateKey: 'pem', signingAlgorithm: 'ES256' }).errors, []);
  });

  it('refuses an oauth block that is not an object', () => {
    assert.match(errorOf('id'), /"oauth" must be an object such as \{ "clientId"/);
  });

  it('takes the same block in mcp.json', () => {
    const parsed = parseMcpJson(
      {
        servers: {
          good: { type: 'http', url: 'https://mcp.linear.app/mcp', oauth: { clientId: '${env:LINEAR_ID}', clientSecret: '${env:LINEAR_SECRET}' } },
          inferred: { url: 'https://mcp.example.com/sse', oauth: { scopes: ['a'] } },
          typo: { type: 'http', url: 'https://x.example.com', oauth: { clientID: 'x' } },
          badMethod: { type: 'sse', url: 'https://x.example.com', oauth: { tokenEndpointAuthMethod: 'private_key_jwt' } },
          noId: { type: 'http', url: 'https://x.example.com', oauth: { clientSecret: 'x' } },
        },
      },
      mcpJson,
      oauthContext,
    );
    assert.deepEqual(parsed.servers.map((s) => [s.name, s.transport, s.transport === 'stdio' ? undefined : s.oauth]), [
      ['good', 'http', { clientId: 'id-from-env', clientSecret: 's3cret' }],
      ['inferred', 'http', { scopes: ['a'] }],
    ]);
    const messages = Object.fromEntries(parsed.errors.map((e) => [e.server, e.message]));
    assert.deepEqual(Object.keys(messages), ['typo', 'badMethod', 'noId']);
    assert.match(messages.typo ?? '', /^MCP server "typo" in \/work\/project\/.vscode\/mcp.json: "oauth" has unknown key "clientID"/);
    assert.match(messages.badMethod ?? '', /"oauth.tokenEndpointAuthMethod" must be one of "client_secret_basic", "client_secret_post", "none"/);
    assert.match(messages.noId ?? '', /"oauth.clientSecret" needs "oauth.clientId"/);
  });

  it('counts the client ID, but not the secret, in the launch identity', () => {
    const config = (clientId: string, clientSecret: string): ServerConfig => {
      const parsed = parseOne({ clientId, clientSecret });
      assert.deepEqual(parsed.errors, []);
      return parsed.servers[0] ?? assert.fail('no server');
    };
    const a = launchIdentity(config('id-a', 'secret-one'));
    assert.notEqual(a, launchIdentity(config('id-b', 'secret-one')));
    assert.equal(a, launchIdentity(config('id-a', 'secret-two')));
    assert.ok(a.includes('id-a'), a);
    assert.ok(!a.includes('secret-one'), a);
    const withoutOAuth = parseQuiverServers({ linear: { url: 'https://mcp.linear.app/mcp' } }, user, oauthContext).servers[0];
    assert.ok(withoutOAuth);
    assert.notEqual(launchIdentity(withoutOAuth), a);
  });
});
