// The MCP conformance suite's client (`@modelcontextprotocol/conformance`): it runs this as
// `node test/conformance/client.mjs <server-url>` with MCP_CONFORMANCE_SCENARIO set, after
// `npm run compile`. Everything MCP and OAuth is Quiver's own McpManager from out/; the only part
// played here is the person: a browser that follows the authorization redirect back to Quiver's
// loopback listener, and a user who accepts a server's form as shown (its defaults filled in).
import { createRequire } from 'node:module';
import { resolve } from 'node:path';

const require = createRequire(import.meta.url);
const out = (file) => require(resolve(import.meta.dirname, '../../out/src', file));
const { McpManager } = out('mcp/index.js');
const { MemorySecretStore, SharedRefreshLock } = out('mcp/oauth/index.js');
const { initialAnswer } = out('core/elicitation/elicitationForm.js');
const { followToCallback } = require(resolve(import.meta.dirname, '../../out/test/fixtures/followSignIn.js'));

const url = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');
const log = (level) => (message) => console.error(`[${level}] ${message}`);
const logger = { info: log('info'), warn: log('warn'), error: log('error') };

/** The scripted person at the browser (test/fixtures/followSignIn.ts). */
const browser = {
  externalize: async (u) => u,
  async open(authorizationUrl) {
    await followToCallback(authorizationUrl);
    return true;
  },
};

// What a user would write in the server's "oauth" block: the client metadata document URL the
// suite serves (SEP-991), a pre-registered client when the scenario hands one out, and for a
// service account (the client-credentials scenarios) "grantType": "client_credentials" with its
// secret or private key.
const serviceAccount = scenario.startsWith('auth/client-credentials-');
const oauth = {
  clientMetadataUrl: 'https://conformance-test.local/client-metadata.json',
  ...(context.client_id === undefined ? {} : { clientId: context.client_id }),
  ...(context.client_secret === undefined ? {} : { clientSecret: context.client_secret }),
  ...(serviceAccount ? { grantType: 'client_credentials' } : {}),
  ...(context.private_key_pem === undefined ? {} : { privateKey: context.private_key_pem, signingAlgorithm: context.signing_algorithm }),
};

const manager = new McpManager({
  logger,
  workspaceTrusted: true,
  startupTimeoutMs: 20_000,
  restart: { maxAttempts: 0 },
  signIn: { browser, store: new MemorySecretStore(), lock: new SharedRefreshLock(undefined), callbackTimeoutMs: 10_000, clientVersion: 'conformance' },
  elicitation: async (request) => (request.mode === 'form' ? { action: 'accept', content: initialAnswer(request.fields) } : { action: 'decline' }),
});
manager.applyConfig([{ transport: 'http', name: 'conformance', url, headers: {}, oauth, source: { kind: 'userSettings' } }]);

/** Arguments a model would send: the schema's defaults, else a value of the right type. */
function argumentsFor(schema) {
  const value = (p) => p.default ?? (p.type === 'number' || p.type === 'integer' ? 1 : p.type === 'boolean' ? true : p.type === 'array' ? [] : p.type === 'object' ? {} : 'conformance');
  return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, p]) => [k, value(p)]));
}

let failed = false;
try {
  await manager.signIn('conformance');
  const status = manager.status('conformance');
  if (status?.state !== 'running') throw new Error(`not running (${status?.state}): ${status?.reason}`);
  for (const tool of manager.tools()) {
    const result = await manager.call(tool.name, argumentsFor(tool.inputSchema), new AbortController().signal);
    logger.info(`${tool.name} → ${JSON.stringify(result).slice(0, 300)}`);
  }
} catch (error) {
  failed = true;
  logger.error(`${scenario}: ${error instanceof Error ? error.message : String(error)}`);
}
await manager.dispose();
process.exit(failed ? 1 : 0);
