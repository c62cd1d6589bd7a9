import assert from 'node:assert/strict';
import type { StreamEvent } from '../../../src/core/stream/events';
import { seededRandom } from '../../fixtures/seededRandom';
import { reply, text, toolUse, type MessagesBody, type ScriptStep } from '../../fixtures/scriptedMessagesApi';
import { harness, signal, type Harness } from './harness';

/*
 * A conversation of 300 requests on claude-sonnet-5-5 (thinking on, its default), with results of
 * 3,000–24,000 characters, three promotions, a /set and an Unload, under the API's context
 * management as Quiver asks for it (quiver.context.management: auto): no request is refused or
 * over the window, the API clears old results and compacts at least once, and after each every
 * tool the conversation found is callable, the unloaded one is not, and a fact from a cleared
 * result is read again with read_result.
 */

const TURNS = Number(process.env.LONG_TURNS ?? 148);
const REPLY_WORDS = 'The page says what the user needs; here is a careful account of it, line by line, with what it means for the next step. ';
const random = seededRandom(29);
const pageSizes = Array.from({ length: TURNS + 1 }, () => 3000 + Math.floor(random() * 21_000));
const factOf = (page: number): string => `FACT-${page}: the code of page ${page} is ${(page * 7919) % 100_003}`;

/** A page of `size` characters with its fact in the middle, out of a shortened view's head and tail. */
function page(n: number): string {
  const size = pageSizes[n] ?? 3000;
  const line = (i: number) => `Line ${i} of page ${n}: ${'lorem ipsum dolor sit amet '.repeat(3)}`;
  const lines: string[] = [];
  for (let i = 0; lines.join('\n').length < size / 2; i++) lines.push(line(i));
  lines.push(factOf(n));
  for (let i = lines.length; lines.join('\n').length < size; i++) lines.push(line(i));
  return lines.join('\n');
}

const servers = () => ({
  docs: { running: true, tools: [{ name: 'fetch_page', description: 'Fetch a documentation page by number.', readOnly: true, handler: (args: Readonly<Record<string, unknown>>) => Promise.resolve({ content: [{ type: 'text' as const, text: page(Number(args['arg'])) }], isError: false }) }] },
  ci: { running: true, tools: [{ name: 'deploy', description: 'Deploy the service to an environment.', readOnly: true }] },
  db: { running: true, tools: [{ name: 'query', description: 'Run a read-only SQL query.', readOnly: true }] },
  mail: { running: true, tools: [{ name: 'send', description: 'Send an email message.', readOnly: true }] },
  wiki: { running: true, tools: [{ name: 'edit', description: 'Edit a wiki page.', readOnly: true }] },
});

const PROMOTIONS: Readonly<Record<number, { query: string; tool: string }>> = { 8: { query: 'deploy', tool: 'ci__deploy' }, 16: { query: 'sql', tool: 'db__query' }, 24: { query: 'email', tool: 'mail__send' } };
const UNLOAD_AT = 30;
const SET_AT = 36;
const READ_AT = [90, 140];

/** The refs the latest note about kept results names, as the model reads them. */
function notedRefs(body: MessagesBody): string[] {
  const texts = body.messages.flatMap((m) => m.content.flatMap((b) => (b.type === 'text' && typeof b.text === 'string' ? [b.text] : [])));
  const note = texts.filter((t) => t.includes('read_result')).at(-1) ?? '';
  return [...note.matchAll(/\b(r[1-9][0-9]*) \(docs__fetch_page \{"arg":"(\d+)"\}\)/g)].map((m) => `${m[1]}:${m[2]}`);
}

/** The steps of one turn: what the scripted model does for the user's message of turn `n`. */
function turnSteps(n: number, reads: { ref: string; page: number }[]): ScriptStep[] {
  const answer = reply(text(`${REPLY_WORDS.repeat(12)} (turn ${n})`));
  const promotion = PROMOTIONS[n];
  if (promotion) return [reply(toolUse(`s${n}`, 'search_tools', { query: promotion.query })), reply(toolUse(`p${n}`, promotion.tool, { arg: String(n) })), answer];
  if (READ_AT.includes(n)) {
    return [
      {
        kind: 'decide',
        decide: (body) => {
          const [first] = notedRefs(body);
          assert.ok(first !== undefined, `turn ${n}: a note names the kept results read_result still reads`);
          const [ref, pageNo] = first.split(':') as [string, string];
          reads.push({ ref, page: Number(pageNo) });
          return reply(toolUse(`r${n}`, 'read_result', { ref, grep: 'FACT-' }));
        },
      },
      reply(toolUse(`q${n}`, 'ci__deploy', { arg: 'staging' }), toolUse(`d${n}`, 'db__query', { arg: 'select 1' }), toolUse(`w${n}`, 'wiki__edit', { arg: 'x' })),
      answer,
    ];
  }
  return [reply(toolUse(`f${n}`, 'docs__fetch_page', { arg: String(n) })), answer];
}

type ToolResult = Extract<StreamEvent, { type: 'tool_result' }>;

async function runConversation(compactionToolChanges: boolean): Promise<{ h: Harness; reads: { ref: string; page: number }[] }> {
  const reads: { ref: string; page: number }[] = [];
  const h = await harness({
    servers: servers(),
    tools: { '*': { enable: 'discoverable' }, docs__fetch_page: { enable: 'on' } },
    results: { maxTokens: 1500, thresholdTokens: 3000 },
    maxCyclesPerTurn: 6,
    api: { compactionToolChanges },
  });
  const { api } = h;
  for (let n = 1; n <= TURNS; n++) {
    if (n === UNLOAD_AT) await h.session.toggle({ kind: 'named', name: 'mail__send' }, 'disable');
    if (n === SET_AT) await h.session.assign('tools.wiki__edit.enable=on');
    api.enqueue(...turnSteps(n, reads));
    const result = await h.session.send(`Please read page ${n} and tell me what it says.`, signal());
    if (process.env.LONG_TRACE) console.log(n, api.requests.length, api.requests.at(-1)?.cache?.prompt_tokens, Date.now());
    assert.equal(result.reason, 'done', `turn ${n}: ${result.message ?? ''}`);
  }
  return { h, reads };
}

describe('a conversation that never ends: 300 requests under context management', function () {
  this.timeout(600_000);

  for (const compactionToolChanges of [true, false]) {
    it(`clears, compacts, keeps every promotion, /set and Unload, and reads a cleared result again (server ${compactionToolChanges ? 'carries' : 'does not carry'} tool changes over a boundary)`, async () => {
      const { h, reads } = await runConversation(compactionToolChanges);
      const { api } = h;
      try {
        const requests = api.requests;
        assert.ok(requests.length >= 300, `${requests.length} requests`);
        assert.deepEqual(requests.filter((r) => r.rejected !== undefined).map((r) => r.rejected), [], 'no request refused');
        const window = 1_000_000;
        assert.ok(requests.every((r) => (r.cache?.prompt_tokens ?? 0) <= window), 'no request over the window');
        const compactions = requests.flatMap((r, i) => (r.compacted === true ? [i] : []));
        const clearings = requests.flatMap((r, i) => (r.cleared !== undefined ? [i] : []));
        assert.ok(compactions.length >= 1, 'at least one compaction');
        assert.ok(clearings.length >= 1, 'at least one clearing');
        // After each compaction and the last clearing (the /set came after the first), what the model is offered at the next request.
        for (const i of [...compactions, clearings.at(-1) as number]) {
          const next = requests[i + 1];
          if (next === undefined) continue;
          for (const tool of ['ci__deploy', 'db__query', 'wiki__edit', 'read_result']) assert.ok(next.offeredTools?.includes(tool), `request ${i + 1} offers ${tool}`);
          assert.ok(!next.offeredTools?.includes('mail__send'), `request ${i + 1} does not offer the unloaded mail__send`);
        }
        // Both reads found the fact of a page whose result was cleared, by the ref a note gave.
        assert.equal(reads.length, READ_AT.length);
        const results = h.conversation.events().filter((e): e is ToolResult => e.type === 'tool_result' && e.name === 'read_result');
        assert.equal(results.length, READ_AT.length);
        results.forEach((r, k) => {
          const read = reads[k];
          assert.ok(read !== undefined);
          const got = r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
          assert.ok(got.includes(factOf(read.page)), `read_result ${read.ref} finds ${factOf(read.page)}: ${got.slice(0, 200)}`);
          assert.equal(r.isError, false);
        });
        // The calls after a boundary ran: promoted and /set tools callable, never the unloaded one.
        const called = h.source.calls.map((c) => c.name);
        for (const tool of ['ci__deploy', 'db__query', 'wiki__edit']) assert.ok(called.filter((c) => c === tool).length >= 1 + READ_AT.length - 1, `${tool} ran after the boundaries`);
        assert.ok(!called.slice(called.indexOf('mail__send') + 1).includes('mail__send'), 'mail__send never ran after it was unloaded');
      } finally {
        await h.close();
      }
    });
  }
});
