import assert from 'node:assert/strict';
import type { ConversationSession } from '../../../src/core/turn/session';
import { maxTokens, partialToolUse, reply, text, toolUse, type MessagesBody, type ScriptStep, type WireBlock } from '../../fixtures/scriptedMessagesApi';
import { harness, offeredIn, signal, type FakeServer, type Harness } from './harness';
import { seededRandom } from '../../fixtures/seededRandom';
import { createSearchBuiltins } from '../../../src/core/turn/searchBuiltins';


const CATALOGUE: Record<string, string[]> = {
  gh: ['issue', 'pull_request', 'comment', 'label'],
  ci: ['deploy', 'logs', 'status'],
  fs: ['read_file', 'write_file'],
};
const KEYWORDS = ['issue', 'pull', 'comment', 'label', 'deploy', 'logs', 'status', 'read', 'write', 'file', 'extra'];
const CUT_MARK = 'cut-call';

function servers(): Record<string, FakeServer> {
  return Object.fromEntries(Object.entries(CATALOGUE).map(([server, tools]) => [server, { running: true, tools: tools.map((name) => ({ name, description: `The ${name.replaceAll('_', ' ')} tool of ${server}.` })) }]));
}

const withoutCache = (value: unknown): unknown => JSON.parse(JSON.stringify(value, (key, v: unknown) => (key === 'cache_control' ? undefined : v)));

/**
 * The previous request's prefix is this one's: system and the tools loaded up front equal, the
 * deferred tools extended at the end only, every earlier message equal (the last one may have
 * grown: a user message takes the next results or words).
 */
function assertAppendOnly(previous: MessagesBody, next: MessagesBody, where: string): void {
  assert.deepEqual(withoutCache(next.system), withoutCache(previous.system), `${where}: system changed`);
  const split = (b: MessagesBody) => ({ upFront: (b.tools ?? []).filter((t) => t.defer_loading !== true), deferred: (b.tools ?? []).filter((t) => t.defer_loading === true) });
  assert.deepEqual(split(next).upFront, split(previous).upFront, `${where}: the tools loaded up front changed`);
  assert.deepEqual(split(next).deferred.slice(0, split(previous).deferred.length), split(previous).deferred, `${where}: a deferred tool changed`);
  const before = withoutCache(previous.messages) as MessagesBody['messages'];
  const after = withoutCache(next.messages) as MessagesBody['messages'];
  before.forEach((m, i) => {
    const now = after[i];
    assert.ok(now !== undefined && now.role === m.role, `${where}: message ${i} (${m.role}) is gone or changed role`);
    const grows = i === before.length - 1;
    assert.deepEqual(grows ? now.content.slice(0, m.content.length) : now.content, m.content, `${where}: message ${i} changed`);
  });
}

interface Run {
  readonly h: Harness;
  session: ConversationSession;
  readonly random: () => number;
  /** What the user turned off (settings or /set), the ground truth the requests must honour. */
  readonly off: Set<string>;
  bodies: MessagesBody[];
  steps: string[];
}

const pick = <T>(random: () => number, list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
const allTools = (): string[] => Object.entries(CATALOGUE).flatMap(([server, tools]) => tools.map((t) => `${server}__${t}`));

/** A scripted model that reads each request: it searches, calls offered tools (two at once sometimes), calls one it was not offered, is cut mid call, or answers. */
function modelTurn(run: Run): ScriptStep[] {
  let replies = 0;
  const decide = (body: MessagesBody): Exclude<ScriptStep, { kind: 'decide' }> => {
    replies++;
    const offered = offeredIn(body).filter((n) => n.includes('__'));
    const roll = run.random();
    if (replies > 3 || roll < 0.2) return reply(text(`Answer ${run.steps.length}.`));
    if (roll < 0.45) return reply(text('Searching.'), toolUse(`s${run.steps.length}_${replies}`, 'search_tools', { query: pick(run.random, KEYWORDS) }));
    if (roll < 0.55) return maxTokens(text('Calling'), partialToolUse(`x${run.steps.length}_${replies}`, pick(run.random, allTools()), { arg: `${CUT_MARK} with a long argument` }));
    if (roll < 0.65) return reply(toolUse(`n${run.steps.length}_${replies}`, pick(run.random, allTools()), { arg: 'unasked' }));
    if (offered.length === 0) return reply(text('Nothing to call.'));
    const calls = [toolUse(`c${run.steps.length}_${replies}`, pick(run.random, offered), { arg: 'a' })];
    if (run.random() < 0.4) calls.push(toolUse(`d${run.steps.length}_${replies}`, pick(run.random, offered), { arg: 'b' }));
    return reply(...calls);
  };
  return Array.from({ length: 6 }, () => ({ kind: 'decide', decide }) as const);
}

async function send(run: Run, forced?: string): Promise<void> {
  const { h } = run;
  const requestsBefore = h.api.requests.length;
  const callsBefore = h.source.calls.length;
  h.api.enqueue(...modelTurn(run));
  // Half the messages are a tool's word alone, which the preload (on, as by default) is sure of, so it loads tools mid-conversation too.
  const message = run.random() < 0.5 ? pick(run.random, KEYWORDS) : `step ${run.steps.length}`;
  await run.session.send(message, signal(), forced);
  h.api.discardRemaining();
  const fresh = h.api.requests.slice(requestsBefore);
  const where = `after ${run.steps.join(' → ')}`;
  for (const r of fresh) {
    assert.equal(r.rejected, undefined, `${where}: refused with ${r.rejected ?? ''}`);
    const offeredOff = offeredIn(r.body).filter((n) => run.off.has(n) && n !== forced);
    assert.deepEqual(offeredOff, [], `${where}: an off tool was callable`);
  }
  for (const call of h.source.calls.slice(callsBefore)) {
    assert.ok(!run.off.has(call.name) || call.name === forced, `${where}: the off tool ${call.name} ran`);
    assert.ok(!JSON.stringify(call.args).includes(CUT_MARK), `${where}: a call cut at max_tokens ran`);
  }
  for (const r of fresh) {
    const previous = run.bodies.at(-1);
    if (previous) assertAppendOnly(previous, r.body, where);
    run.bodies.push(r.body);
  }
}

function setAvailability(run: Run, tool: string, value: 'on' | 'off' | 'discoverable'): void {
  const current = run.h.settings.tools as Record<string, { enable?: string } | undefined>;
  // Writing what settings already say records nothing, so a /set of the conversation stays in force.
  if (current[tool]?.enable === value) return;
  run.h.settings.tools = { ...current, [tool]: { enable: value } };
  if (value === 'off') run.off.add(tool);
  else run.off.delete(tool);
}

async function step(run: Run): Promise<void> {
  const { h, random } = run;
  const roll = random();
  const tool = pick(random, allTools());
  if (roll < 0.4) {
    run.steps.push('send');
    return send(run);
  }
  if (roll < 0.55) {
    const value = pick(random, ['on', 'off', 'discoverable'] as const);
    run.steps.push(`settings ${tool}=${value}`);
    return setAvailability(run, tool, value);
  }
  if (roll < 0.62) {
    const value = pick(random, ['on', 'off'] as const);
    run.steps.push(`/set ${tool}=${value}`);
    const result = await run.session.assign(`tools.${tool}.enable=${value}`);
    if (result.refused === undefined) {
      if (value === 'off') run.off.add(tool);
      else run.off.delete(tool);
    }
    return;
  }
  if (roll < 0.7) {
    run.steps.push(`/use ${tool}`);
    return send(run, tool);
  }
  if (roll < 0.78) {
    const server = pick(random, Object.keys(CATALOGUE));
    const s = h.source.servers[server] as FakeServer;
    s.running = !s.running;
    run.steps.push(`server ${server} ${s.running ? 'back' : 'gone'}`);
    return;
  }
  if (roll < 0.88) {
    const server = pick(random, Object.keys(CATALOGUE));
    const s = h.source.servers[server] as FakeServer;
    const extra = `${server}_extra`;
    s.tools = s.tools.some((t) => t.name === extra) ? s.tools.filter((t) => t.name !== extra) : [...s.tools, { name: extra, description: `An extra ${server} tool that came with list_changed.` }];
    run.steps.push(`list_changed ${server}`);
    return;
  }
  run.steps.push('reload');
  run.session = await h.reopen();
}

/** Reads what the requests sent so far hold, for a failure message. */
const lastRoles = (body: MessagesBody | undefined): string => (body?.messages ?? []).slice(-4).map((m) => `${m.role}[${m.content.map((b: WireBlock) => b.type).join(',')}]`).join(' ');

describe('the wire under random conversations (property)', function () {
  this.timeout(180_000);
  for (const seed of [1, 2, 3]) {
    it(`seed ${seed}: 150 steps of searches, preloads, settings edits, /set, /use, servers going and coming back, list_changed, reloads, parallel and cut calls — none refused, no off tool callable or run, every request extends the previous one`, async () => {
      const h = await harness({ servers: servers(), tools: { '*': { enable: 'discoverable' }, ci__status: { enable: 'on' } }, builtins: createSearchBuiltins(), searchPreload: 'on' });
      const run: Run = { h, session: h.session, random: seededRandom(seed), off: new Set(), bodies: [], steps: [] };
      try {
        for (let i = 0; i < 150; i++) await step(run);
        assert.ok(run.bodies.length > 40, `only ${run.bodies.length} requests were made`);
        assert.ok(run.bodies.some((b) => JSON.stringify(b.messages.at(-1)).includes('Loaded for this message')), 'no message preloaded a tool');
      } catch (err) {
        const detail = `\nlast request: ${lastRoles(run.bodies.at(-1))}`;
        throw err instanceof Error ? Object.assign(err, { message: `${err.message}${detail}` }) : err;
      } finally {
        await h.close();
      }
    });
  }
});
