import assert from 'node:assert/strict';
import { maxTokens, partialToolUse, reply, text, thinking, toolUse, type MessagesBody, type RecordedRequest } from '../../fixtures/scriptedMessagesApi';
import { appendedSystemText, harness, offeredIn, signal, type Harness } from './harness';

/** Descriptions long enough that every prompt is over the API's minimum cacheable length. */
const long = (what: string): string => `${what} ${'It documents its arguments and edge cases at length. '.repeat(40)}`;
const servers = () => ({
  ci: { running: true, tools: [{ name: 'status', description: long('Show CI status.') }, { name: 'deploy', description: long('Deploy the service to production.') }, { name: 'logs', description: long('Read the deploy logs.') }] },
  gh: { running: true, tools: [{ name: 'issue', description: long('Open a GitHub issue.') }] },
});

const upFront = (body: MessagesBody | undefined): string => JSON.stringify((body?.tools ?? []).filter((t) => t.defer_loading !== true));
/** What a request read from cache, as a share of the whole previous prompt. */
const readOfPrevious = (r: RecordedRequest | undefined, previous: RecordedRequest | undefined): number => (r?.cache && previous?.cache ? r.cache.cache_read_input_tokens / Math.max(1, previous.cache.prompt_tokens) : 0);

/** Every assistant message a request sends back opens with the thinking block the reply returned, signature intact. */
function assistantTurnsKeepThinking(body: MessagesBody | undefined): boolean {
  const assistant = (body?.messages ?? []).filter((m) => m.role === 'assistant');
  return assistant.every((m) => m.content[0]?.type === 'thinking' && typeof m.content[0]['signature'] === 'string' && m.content[0]['signature'] !== '');
}

describe('a conversation on claude-sonnet-5-5 (nothing set but the key and base URL)', function () {
  this.timeout(30_000);
  let h: Harness | undefined;
  afterEach(async () => h?.close());

  it('a promotion, a /use, a tool turned off mid-conversation, a reply cut at max_tokens and a reload: no request refused, the off and the cut calls never run, thinking sent back and shown', async () => {
    const thoughts: string[] = [];
    h = await harness({
      servers: servers(),
      tools: { '*': { enable: 'discoverable' }, ci__status: { enable: 'on' } },
      observer: { onThinking: (d) => thoughts.push(d) },
      script: [
        reply(thinking('The deploy tool is not loaded; searching.'), toolUse('s1', 'search_tools', { query: 'deploy' })),
        reply(toolUse('c1', 'ci__deploy', {})),
        reply(text('Deployed.')),
        reply(toolUse('u1', 'gh__issue', { arg: 'deploy done' })),
        reply(text('Filed.')),
        reply(toolUse('c2', 'ci__deploy', {})),
        reply(text('Deploying is turned off.')),
        maxTokens(text('Reading the logs'), partialToolUse('c3', 'ci__logs', { arg: 'a long query that the cut leaves half written' })),
        reply(text('You are welcome.')),
      ],
    });
    assert.equal((await h.session.send('deploy it', signal())).reason, 'done');
    assert.equal((await h.session.send('file an issue about it', signal(), 'gh__issue')).reason, 'done');
    h.settings.tools = { '*': { enable: 'discoverable' }, ci__status: { enable: 'on' }, ci__deploy: { enable: 'off' } };
    assert.equal((await h.session.send('deploy again', signal())).reason, 'done');
    const cut = await h.session.send('and the logs?', signal());
    assert.equal(cut.reason, 'cut_off');
    assert.match(cut.message ?? '', /max_tokens/);
    const reopened = await h.reopen();
    assert.equal((await reopened.send('thanks', signal())).reason, 'done');

    const requests = h.api.requests;
    assert.deepEqual(requests.map((r) => r.rejected).filter((r) => r !== undefined), [], 'no request refused');
    assert.equal(requests.length, 9);
    assert.deepEqual(h.source.calls.map((c) => c.name), ['ci__deploy', 'gh__issue'], 'the off call and the cut call never ran');
    for (const r of requests) {
      assert.equal(upFront(r.body), upFront(requests[0]?.body), 'the tools loaded up front keep their bytes');
      assert.deepEqual(r.body.system, requests[0]?.body.system, 'system keeps its bytes');
      assert.equal(r.body.tool_choice, undefined, 'no forced tool use');
      assert.ok(assistantTurnsKeepThinking(r.body), 'every assistant turn goes back with its thinking');
    }
    assert.ok(offeredIn(requests[3]?.body).includes('gh__issue') && /\/use gh__issue/.test(appendedSystemText(requests[3]?.body)));
    assert.ok(!offeredIn(requests[5]?.body).includes('gh__issue'), '/use withdraws the tool after its turn');
    for (const r of requests.slice(5)) assert.ok(!offeredIn(r.body).includes('ci__deploy'), 'a tool turned off is not callable');
    const cutResult = requests[8]?.body.messages.flatMap((m) => m.content).find((b) => b.type === 'tool_result' && b.tool_use_id === 'c3');
    assert.match(JSON.stringify(cutResult), /cut off at max_tokens/);
    assert.ok(thoughts.join('').includes('searching'), 'the model\'s progress reached the chat');
    for (let i = 1; i < requests.length; i++) {
      const share = readOfPrevious(requests[i], requests[i - 1]);
      assert.ok(share >= 0.9, `request ${i + 1} read ${share.toFixed(2)} of the previous prompt from cache`);
    }
  });
});
