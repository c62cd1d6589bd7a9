import assert from 'node:assert/strict';
import { NO_CONTEXT_MANAGEMENT } from '../../../src/core/context';
import { createServer, type AddressInfo } from 'node:net';
import { ModelError, type ModelRequest } from '../../../src/core/models/model';
import { fallbackCapabilities } from '../../../src/providers/anthropic/modelTable';
import { AnthropicModelClient } from '../../../src/providers/anthropic/anthropicModelClient';
import { apiError, reply, text, type ScriptStep } from '../../fixtures/scriptedMessagesApi';
import { harness, signal, type Harness } from './harness';

const servers = { ci: { running: true, tools: [{ name: 'status' }] } };

const bareRequest = (messages: ModelRequest['messages']): ModelRequest => ({
  model: 'claude-sonnet-5-5', capabilities: fallbackCapabilities('claude-sonnet-5-5'), system: '', messages, upFront: [], deferred: [], discoveries: [],
  maxTokens: 1, thinking: 'adaptive', effort: undefined, previousMessageId: undefined, contextManagement: NO_CONTEXT_MANAGEMENT, cacheTtl: '5m',
});

function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    }).on('error', reject);
  });
}

describe('API errors become clear messages', function () {
  this.timeout(20_000);
  let h: Harness | undefined;
  afterEach(async () => h?.close());

  // `cause`: the few words a message that was not sent is labelled with; "refused" only for a 4xx the API answered.
  const cases: { name: string; script: ScriptStep[]; retries: number; requests: number; message: RegExp; cause: string }[] = [
    { name: '401', script: [apiError(401, 'authentication_error', 'invalid x-api-key')], retries: 2, requests: 1, message: /rejected the API key \(401.*"Quiver: Set API Key" or ANTHROPIC_API_KEY/, cause: 'the API refused the key (401)' },
    { name: '400', script: [apiError(400, 'invalid_request_error', 'messages: roles must alternate')], retries: 2, requests: 1, message: /rejected the request \(400\): messages: roles must alternate/, cause: 'the API refused it (400 messages: roles must alternate)' },
    { name: '429 after the SDK retries', script: [apiError(429, 'rate_limit_error'), apiError(429, 'rate_limit_error'), apiError(429, 'rate_limit_error')], retries: 2, requests: 3, message: /rate-limiting.*\(429\). Quiver retried 2 times/, cause: 'the API is rate-limiting this key (429)' },
    { name: '529', script: [apiError(529, 'overloaded_error'), apiError(529, 'overloaded_error')], retries: 1, requests: 2, message: /overloaded right now \(529\)/, cause: 'the API is overloaded (529)' },
    { name: '500', script: [apiError(500), apiError(500)], retries: 1, requests: 2, message: /internal error \(500\)/, cause: 'the API had an internal error (500)' },
    { name: 'a stream cut halfway', script: [{ kind: 'reply', content: [text('partial answer here')], cutAfter: 3 }], retries: 2, requests: 1, message: /cut off before it finished/, cause: 'the reply was cut off' },
    { name: 'an overloaded error mid-stream', script: [{ kind: 'reply', content: [text('partial answer here')], errorAfter: { events: 3, type: 'overloaded_error', message: 'Overloaded' } }], retries: 2, requests: 1, message: /overloaded right now and stopped the reply midway/, cause: 'the API is overloaded' },
  ];

  for (const c of cases) {
    it(c.name, async () => {
      h = await harness({ servers, script: c.script, maxRetries: c.retries });
      const result = await h.session.send('hi', signal());
      assert.equal(result.reason, 'error');
      assert.match(result.message ?? '', c.message);
      assert.equal(h.api.requests.length, c.requests);
      const end = h.conversation.events().at(-1);
      assert.equal(end?.type === 'turn_end' ? end.message : '', result.message);
      const cause = end?.type === 'turn_end' ? (end.cause ?? '') : '';
      assert.ok(cause.startsWith(c.cause), `the turn's end records the cause "${c.cause}…", not "${cause}"`);
    });
  }

  it('the SDK retries a 529 by itself and the turn succeeds', async () => {
    h = await harness({ servers, script: [apiError(529, 'overloaded_error'), reply(text('fine'))], maxRetries: 2 });
    assert.equal((await h.session.send('hi', signal())).reason, 'done');
  });

  it('an unreachable base URL: the message names the URL it used and the setting; the cause says it could not reach it, never that the API refused', async () => {
    // A port nothing listens on (fetch refuses to try some low ones, such as 9, before connecting).
    const closed = await closedPort();
    const client = new AnthropicModelClient({ apiKey: 'k', baseURL: `http://127.0.0.1:${closed}`, maxRetries: 0 });
    await assert.rejects(
      client.stream(bareRequest([{ role: 'user', content: [{ type: 'text', text: 'hi' }] }]), { onText: () => undefined }, signal()),
      (err: unknown) => {
        assert.ok(err instanceof ModelError);
        assert.equal(err.kind, 'connection');
        assert.ok(err.message.startsWith(`Could not reach the Anthropic API at http://127.0.0.1:${closed} (quiver.anthropic.baseUrl in your User settings)`), err.message);
        assert.equal(err.brief, `could not reach http://127.0.0.1:${closed} (connection refused)`);
        return true;
      },
    );
  });

  it('no API key: says how to set one, without any request', async () => {
    const client = new AnthropicModelClient({ apiKey: undefined });
    await assert.rejects(
      client.stream(bareRequest([]), { onText: () => undefined }, signal()),
      (err: unknown) => err instanceof ModelError && /No Anthropic API key.*"Quiver: Set API Key".*ANTHROPIC_API_KEY/.test(err.message) && err.brief === 'no API key',
    );
  });
});
