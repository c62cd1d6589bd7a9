import { clearedNote, contextManagementFor, keptAfterCompaction } from '../context';
import { resolveCacheTtl } from '../context/cacheTtl';
import type { ModelRequest } from '../models/model';
import type { AssistantBlock, StreamEvent, TurnEndReason } from '../stream/events';
import { transcriptOf } from '../stream/transcript';
import type { ModelCapabilities } from '../models/capabilities';
import { resolveThinking, type ResolvedThinking } from '../settings/thinking';
import { wireEventsFor, loadedDefinitions } from '../wire/wireChanges';
import { wireStateOf } from '../wire/wireState';
import { CommitBuffer, foldCycle } from './commitBuffer';
import { errorResult, executeCalls } from './executeCalls';
import { maxTokensFor } from './maxTokens';
import { afterReply } from './stopReasons';
import type { TurnDeps, TurnResult, TurnSettings } from './ports';
import { CANCELLED_TURN, streamReply } from './reply';
import { renderSearchResult } from './searchResult';
import { systemPrompt } from './systemPrompt';
import { waitingForSignIn } from './signInServers';
import { allBuiltins, planTools, type ToolPlan } from './toolPlan';
import { keptResults } from '../results/keptResults';
import { openingEvents, prepareForced, serversToAwait, settingsChange, startPermittedServers, type TurnStart } from './turnStart';
import { untilAborted } from './untilAborted';
import { SEARCH_TOOLS_NAME } from '../tools/definitions';

export interface TurnContext extends TurnDeps {
  readonly settings: TurnSettings;
  /** `quiver.tools` as the host applies it now: a settings edit during a turn takes effect at the next request. */
  readonly currentTools: () => unknown;
  /** Told when a cycle's commit buffer opens and closes, so toggles made meanwhile fold at their position. */
  readonly onBuffer?: (buffer: CommitBuffer | undefined) => void;
  /** Server starts a conversation change began before this turn (see ConversationSession.assign). */
  readonly serversStarting?: Promise<void>;
}

type ToolUse = Extract<AssistantBlock, { type: 'tool_use' }>;

const now = (): string => new Date().toISOString();

async function record(ctx: TurnContext, events: readonly StreamEvent[]): Promise<void> {
  await ctx.log.append(...events);
  for (const e of events) ctx.observer.onEvent?.(e);
}

/** `cause`: an error's cause in a few words, for the label of a message that was not sent. */
async function end(ctx: TurnContext, reason: TurnEndReason, message?: string, cause?: string): Promise<TurnResult> {
  await record(ctx, [{ type: 'turn_end', reason, ...(message !== undefined ? { message } : {}), ...(cause !== undefined ? { cause } : {}), at: now() }]);
  return { reason, ...(message !== undefined ? { message } : {}) };
}

function plan(ctx: TurnContext, forced: string | undefined): ToolPlan {
  const { source, builtins, log } = ctx;
  return planTools({ events: log.events(), mcpTools: source.tools(), builtins: builtins.definitions, runningServers: source.runningServers(), ...(forced !== undefined ? { forced } : {}) });
}

/** Executes one reply's calls, folds the buffer by call index, and appends results and deltas. */
async function runCycle(ctx: TurnContext, toolPlan: ToolPlan, calls: readonly ToolUse[], alwaysAllowed: Set<string>, signal: AbortSignal): Promise<void> {
  const buffer = new CommitBuffer();
  ctx.onBuffer?.(buffer);
  try {
    const { source, builtins, approver, elicitor, observer } = ctx;
    const results = keptResults({ store: ctx.results, events: ctx.log.events(), resolved: toolPlan.resolved, permitted: toolPlan.permitted, settings: ctx.settings.results });
    await executeCalls(calls, buffer, { plan: toolPlan, source, builtins, approver, elicitor, observer, results, runningServers: source.runningServers(), searchLoadBudget: ctx.settings.searchLoadBudget, alwaysAllowed, signal });
  } finally {
    ctx.onBuffer?.(undefined);
  }
  const at = now();
  const folded = foldCycle(toolPlan.config, buffer.entries(), ctx.source.tools(), at, renderSearchResult);
  const known = wireStateOf(ctx.log.events(), []).definitions;
  await record(ctx, [...folded, ...loadedDefinitions(folded, known, ctx.source.tools(), at)]);
}

/** Answers calls that must not run, each with why, so every tool_use keeps its tool_result. */
function unrunResults(calls: readonly ToolUse[], why: string): StreamEvent[] {
  return calls.map((c) => ({ type: 'tool_result', toolUseId: c.id, name: c.name, content: errorResult(why).content, isError: true, notRun: 'refused', at: now() }));
}

function lastMessageId(events: readonly StreamEvent[]): string | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (e?.type === 'assistant_message' && e.messageId !== undefined) return e.messageId;
  }
  return undefined;
}

/**
 * The next request, append-only: first the wire events that offer this request's tools
 * without touching what was sent before (see wireEventsFor), then the request read back from
 * the stream alone.
 */
async function nextRequest(ctx: TurnContext, toolPlan: ToolPlan, capabilities: ModelCapabilities, thinking: ResolvedThinking, forcedNow: string | undefined): Promise<ModelRequest> {
  const searchOffered = toolPlan.offered.some((t) => t.name === SEARCH_TOOLS_NAME);
  const listed = new Set([...allBuiltins(ctx.builtins.definitions), ...ctx.source.tools()].map((t) => t.name));
  const before = ctx.log.events();
  const management = contextManagementFor(capabilities, ctx.settings.contextManagement);
  const notes = [...keptAfterCompaction(before, now()), ...(management.clearing !== undefined ? clearedNote(before, management.clearing.keepToolUses, now()) : [])];
  await record(ctx, [...notes.slice(0, 1), ...wireEventsFor({
    events: before,
    messages: transcriptOf(before),
    desired: toolPlan.offered,
    forcedNow,
    listed,
    systemPrompt: systemPrompt(searchOffered, searchOffered ? ctx.builtins.serverIndex(toolPlan.indexed) : '', ctx.builtins.signInIndex(waitingForSignIn(ctx.source, toolPlan.config))),
    at: now(),
  })]);
  const events = ctx.log.events();
  const messages = transcriptOf(events);
  const wire = wireStateOf(events, messages);
  return {
    model: ctx.settings.model,
    capabilities,
    system: wire.system ?? '',
    messages,
    upFront: wire.upFront,
    deferred: wire.deferred,
    discoveries: wire.discoveries,
    maxTokens: maxTokensFor(ctx.settings.maxTokens, capabilities),
    thinking: thinking.thinking,
    effort: thinking.effort,
    previousMessageId: lastMessageId(events),
    contextManagement: management, cacheTtl: resolveCacheTtl(ctx.settings.cacheTtl),
  };
}

/**
 * One turn: one or more cycles of (stream a reply, run its tool calls), re-resolving config
 * and the offered set before every request and appending what changed, until the model stops
 * calling tools, a reply stops for another reason (see afterReply), the cycle limit is hit, the
 * user cancels, or the API fails.
 */
export async function runTurn(ctx: TurnContext, start: TurnStart, signal: AbortSignal): Promise<TurnResult> {
  const forced = start.kind === 'message' ? start.forced : undefined;
  if (forced !== undefined) {
    const events = [...ctx.log.events(), ...openingEvents(ctx.log.events(), start, ctx.settings.tools, now())];
    const waiting = serversToAwait(events, forced, ctx.source);
    if (waiting.length > 0) ctx.observer.onWaitingForServers?.(waiting);
    const refusal = await untilAborted(prepareForced(forced, events, ctx.source), signal, CANCELLED_TURN);
    if (signal.aborted) return { reason: 'cancelled', message: CANCELLED_TURN };
    if (refusal !== undefined) return { reason: 'refused', message: refusal };
  }
  // Computed after the wait above: a /set made meanwhile has recorded settings already.
  await record(ctx, openingEvents(ctx.log.events(), start, ctx.settings.tools, now()));
  // Servers still starting hold the turn only when it needs one of their tools; the rest join when up.
  const needed = serversToAwait(ctx.log.events(), undefined, ctx.source);
  if (needed.length > 0) ctx.observer.onWaitingForServers?.(needed);
  const starts = Promise.all([ctx.serversStarting, startPermittedServers(ctx.log.events(), ctx.source), ...needed.map((s) => ctx.source.ensureRunning(s).catch(() => undefined))]);
  await untilAborted(starts.then(() => undefined), signal, undefined);
  const capabilities = await ctx.model.capabilities(ctx.settings.model, signal);
  const thinking = resolveThinking(ctx.settings.thinking, ctx.settings.effort, capabilities);
  if ('issue' in thinking) return end(ctx, 'error', thinking.issue, 'quiver.thinking and quiver.effort do not fit this model');
  const alwaysAllowed = new Set<string>();
  for (let cycle = 1; ; cycle++) {
    if (signal.aborted) return end(ctx, 'cancelled', CANCELLED_TURN);
    if (cycle > 1) await record(ctx, settingsChange(ctx.log.events(), ctx.currentTools(), now()));
    const toolPlan = plan(ctx, forced);
    ctx.observer.onRequest?.({ cycle, tools: toolPlan.offered.map((t) => t.name) });
    const request = await nextRequest(ctx, toolPlan, capabilities, thinking, cycle === 1 ? forced : undefined);
    const reply = await streamReply(ctx.model, request, ctx.observer, signal);
    await record(ctx, reply.events);
    if (!reply.ok) return end(ctx, reply.reason, reply.message, reply.cause);
    const calls = reply.content.filter((b): b is ToolUse => b.type === 'tool_use');
    const next = afterReply(reply.stopReason, request.maxTokens);
    if (next.kind === 'continue') continue;
    if (next.kind === 'end') {
      if (calls.length > 0 && next.unrun !== undefined) await record(ctx, unrunResults(calls, next.unrun));
      return end(ctx, next.reason, next.message);
    }
    if (calls.length === 0) return end(ctx, 'done');
    if (cycle >= ctx.settings.maxCyclesPerTurn) {
      await record(ctx, unrunResults(calls, `Not run: the turn reached its limit of ${ctx.settings.maxCyclesPerTurn} model responses (quiver.maxCyclesPerTurn).`));
      return end(ctx, 'max_cycles', `Stopped after ${cycle} model responses in one turn (quiver.maxCyclesPerTurn). The model was still calling tools; send a message to let it continue.`);
    }
    await runCycle(ctx, toolPlan, calls, alwaysAllowed, signal);
  }
}
