import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import type { StreamEvent } from '../../../src/core/stream/events';
import { reply, ScriptedMessagesApi, text } from '../../fixtures/scriptedMessagesApi';
import { harness, signal, type Harness } from './harness';

// Descriptions long enough that the tools and system prompt pass Sonnet 5.5's 512-token minimum.
const long = (what: string): string => `${what} ${'It takes the usual options and reports what it did in detail. '.repeat(30)}`;
const servers = { ci: { running: true, tools: [{ name: 'status', description: long('Pipeline status.') }, { name: 'logs', description: long('Build logs.') }] } };

type Usage = Extract<StreamEvent, { type: 'usage' }>;
const usages = (h: Harness): Usage[] => h.conversation.events().filter((e): e is Usage => e.type === 'usage');

describe('quiver.cache.ttl on the wire', function () {
  this.timeout(10_000);
  let h: Harness | undefined;
  afterEach(async () => h?.close());

  it('1h: the system prompt\'s breakpoint (the stable prefix, after the tools) asks for an hour, the moving one stays at 5 minutes, and the 1-hour write is recorded', async () => {
    h = await harness({ servers, cacheTtl: '1h', script: [reply(text('one')), reply(text('two'))] });
    await h.session.send('hello', signal());
    await h.session.send('again', signal());
    const [first, second] = h.api.requests;
    assert.deepEqual(first?.body.system?.[0]?.cache_control, { type: 'ephemeral', ttl: '1h' });
    assert.deepEqual(first?.body.messages.at(-1)?.content.at(-1)?.cache_control, { type: 'ephemeral' });
    assert.ok((first?.body.tools ?? []).every((t) => !('cache_control' in t)));
    assert.equal(first?.rejected, undefined);
    assert.ok(!first?.betas.some((b) => b.startsWith('extended-cache-ttl')), 'no beta header');
    const stable = first?.cache?.cache_creation.ephemeral_1h_input_tokens ?? 0;
    assert.ok(stable >= 512, 'the tools and system prompt were written for an hour');
    const [u1, u2] = usages(h);
    assert.equal(u1?.cacheWrite1hTokens, stable);
    assert.equal(u1?.cacheWriteTokens, first?.cache?.cache_creation_input_tokens);
    assert.equal(u2?.cacheWrite1hTokens, undefined, 'the second request reads the stable prefix: no 1-hour write');
    assert.equal(second?.cache?.cache_read_input_tokens, first?.cache?.prompt_tokens);
  });

  it('5m: every breakpoint is the API\'s default, and no 1-hour write is recorded', async () => {
    h = await harness({ servers, cacheTtl: '5m', script: [reply(text('one'))] });
    await h.session.send('hello', signal());
    assert.deepEqual(h.api.requests[0]?.body.system?.[0]?.cache_control, { type: 'ephemeral' });
    const [u] = usages(h);
    assert.ok((u?.cacheWriteTokens ?? 0) > 0);
    assert.equal(u?.cacheWrite1hTokens, undefined);
  });

  it('the scripted API refuses a 1-hour breakpoint after a 5-minute one, as the API does', async () => {
    const api = await ScriptedMessagesApi.start([reply(text('never'))]);
    try {
      const client = new Anthropic({ apiKey: 'test-key', baseURL: api.url, maxRetries: 0 });
      const request = client.beta.messages.create({
        model: 'claude-sonnet-5-5',
        max_tokens: 100,
        tools: [{ name: 'status', description: 'Pipeline status.', input_schema: { type: 'object' }, cache_control: { type: 'ephemeral' } }],
        system: [{ type: 'text', text: 'You help.', cache_control: { type: 'ephemeral', ttl: '1h' } }],
        messages: [{ role: 'user', content: 'hi' }],
      });
      await assert.rejects(request, (err: unknown) => {
        assert.ok(err instanceof Anthropic.BadRequestError);
        assert.match(err.message, /system\.0\.cache_control\.ttl: a ttl='1h' cache_control block must not come after a ttl='5m' cache_control block\. Note that blocks are processed in the following order: `tools`, `system`, `messages`\./);
        return true;
      });
      assert.equal(api.remaining, 1, 'no step played');
    } finally {
      await api.close();
    }
  });
});
