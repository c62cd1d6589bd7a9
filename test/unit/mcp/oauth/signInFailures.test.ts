import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import assert from 'node:assert/strict';
import { describeSignInFailure, SignInAbandoned, SignInDeclined, SignInRequired } from '../../../../src/mcp/oauth';
import { type ConfigSource, describeSource, type RemoteServerConfig, type StdioServerConfig } from '../../../../src/mcp/config';

const mcpJson: ConfigSource = { kind: 'mcpJson', file: '/work/project/.vscode/mcp.json' };
const remote = (headers: Record<string, string> = {}, source: ConfigSource = mcpJson): RemoteServerConfig => ({
  transport: 'http', name: 'linear', url: 'https://mcp.linear.app/mcp', headers, source,
});
const stdio: StdioServerConfig = { transport: 'stdio', name: 'fs', command: 'node', args: [], env: {}, cwd: undefined, source: { kind: 'userSettings' } };

describe('describeSignInFailure', () => {
  it('a sign-in the user did not ask for, or declined, is fixed by signing in', () => {
    const required = new SignInRequired('linear');
    assert.deepEqual(describeSignInFailure(required, remote()), { reason: required.message, signIn: true });
    assert.match(required.message, /MCP server "linear" uses OAuth/);
    const declined = new SignInDeclined('linear');
    assert.deepEqual(describeSignInFailure(declined, remote()), { reason: declined.message, signIn: true });
  });

  it('an abandoned or unfinished sign-in says so', () => {
    assert.deepEqual(describeSignInFailure(new SignInAbandoned('sign-in was cancelled'), remote()), {
      reason: 'sign-in did not finish: sign-in was cancelled. Sign In to try again.',
      signIn: true,
    });
    assert.deepEqual(describeSignInFailure(new UnauthorizedError('x'), remote()), { reason: 'sign-in did not finish; Sign In to try again.', signIn: true });
  });

  it('an authorization server without dynamic registration asks for a client ID in the right file', () => {
    // The SDK's own message (client/auth.js registerClient).
    const error = new Error('Incompatible auth server: does not support dynamic client registration');
    const failure = describeSignInFailure(error, remote());
    assert.ok(failure !== undefined);
    assert.equal(failure.signIn, false);
    assert.ok(failure.reason.includes('"oauth": { "clientId": "…", "clientSecret": "${env:…}" }'), failure.reason);
    assert.ok(failure.reason.includes('http://127.0.0.1:33418/callback'), failure.reason);
    assert.ok(failure.reason.endsWith(`to this server in ${describeSource(mcpJson)}.`), failure.reason);
    assert.ok(failure.reason.includes('/work/project/.vscode/mcp.json'));
    const inSettings = describeSignInFailure(error, remote({}, { kind: 'workspaceSettings' }));
    assert.ok(inSettings?.reason.endsWith('to this server in workspace settings (quiver.mcpServers).'), inSettings?.reason);
  });

  it('a 401 tells to sign in; with a token of the user\'s own it points at the header and is no sign-in matter', () => {
    const refused = new StreamableHTTPError(401, 'Unauthorized');
    assert.deepEqual(describeSignInFailure(refused, remote()), { reason: "the server refused Quiver's credentials (401 Unauthorized). Sign In to try again.", signIn: true });
    assert.deepEqual(describeSignInFailure(refused, remote({ authorization: 'Bearer x' })), {
      reason: `the server refused the token in the "Authorization" header (401 Unauthorized): check it in ${mcpJson.file}, or remove the header to sign in with OAuth.`,
      signIn: false,
    });
  });

  it('a 403 names the missing permission or scope', () => {
    const failure = describeSignInFailure(new StreamableHTTPError(403, 'Forbidden'), remote());
    assert.equal(failure?.signIn, true);
    assert.match(failure?.reason ?? '', /^the server refused access \(403 Forbidden\): the signed-in account lacks a permission or scope/);
  });

  it('leaves every other failure alone', () => {
    assert.equal(describeSignInFailure(new Error('ECONNREFUSED'), remote()), undefined);
    assert.equal(describeSignInFailure(new StreamableHTTPError(500, 'Internal'), remote()), undefined);
    assert.equal(describeSignInFailure('just text', remote()), undefined);
    assert.equal(describeSignInFailure(new Error('does not support dynamic client registration'), stdio), undefined);
  });
});
