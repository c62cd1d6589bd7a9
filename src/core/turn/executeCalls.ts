import type { KeptResults } from '../results/keptResults';
import type { AssistantBlock, KeptResult, NotRunReason } from '../stream/events';
import type { CallReview, ToolCallResult, ToolSource } from '../tools/toolSource';
import { callRefusal } from './callEligibility';
import { callGroups } from './callGroups';
import { untilAborted } from './untilAborted';
import type { BufferEntry, CommitBuffer } from './commitBuffer';
import type { CallProgress, ToolCallHooks } from '../elicitation/elicitation';
import type { ApprovalDecision, Approver, BuiltinTools, Elicitor, SearchAnswer, TurnObserver } from './ports';
import { waitingForSignIn } from './signInServers';
import type { ToolPlan } from './toolPlan';
import { DESCRIBE_TOOLS_NAME, READ_RESULT_NAME, SEARCH_TOOLS_NAME } from '../tools/definitions';

type ToolUse = Extract<AssistantBlock, { type: 'tool_use' }>;

const CANCELLED_RESULT = 'The tool call was cancelled by the user.';

/** The builtins, which a search never reports as loaded (they are not what anyone searches for). */
const BUILTIN_NAMES: ReadonlySet<string> = new Set([SEARCH_TOOLS_NAME, DESCRIBE_TOOLS_NAME, READ_RESULT_NAME]);

/**
 * What the model reads of a call that was running when the user stopped the turn: unlike a call
 * that never started, it may have done part of its work, so the model must not take it as undone.
 */
export function stoppedWhileRunningText(name: string, progress: CallProgress | undefined): string {
  const last = progress === undefined ? '' : ` Its last progress report was ${progress.total === undefined ? String(progress.progress) : `${progress.progress} of ${progress.total}`}${progress.message === undefined || progress.message === '' ? '' : ` (${progress.message})`}.`;
  return `The call was stopped by the user while it was running; it may have had effects (${name} had started, and was stopped before it returned a result).${last} Check the current state before running it again, and do not run it again unless the user asks.`;
}

export interface ExecutionContext {
  readonly plan: ToolPlan;
  readonly source: ToolSource;
  readonly builtins: BuiltinTools;
  readonly approver: Approver;
  readonly elicitor: Elicitor | undefined;
  readonly observer: TurnObserver;
  /** Bounds what MCP tools return, keeping the whole of a long result, and answers read_result. */
  readonly results: KeptResults;
  readonly runningServers: ReadonlySet<string>;
  /** Estimated definition tokens one search_tools call may load (TurnSettings.searchLoadBudget). */
  readonly searchLoadBudget: number;
  /** Tools the user chose "always allow" for during this turn; they are not asked again. */
  readonly alwaysAllowed: Set<string>;
  readonly signal: AbortSignal;
}

export function errorResult(text: string): ToolCallResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/** A call answered without running, and why. */
interface NotRun {
  readonly result: ToolCallResult;
  readonly reason: NotRunReason;
}

const notRun = (reason: NotRunReason, text: string): NotRun => ({ result: errorResult(text), reason });

/**
 * Asks the user when the tool's run policy says so, or when its review says it must ask whatever
 * the policy (then "always allow" counts once only); undefined means go ahead.
 */
async function approval(call: ToolUse, review: CallReview, ctx: ExecutionContext): Promise<NotRun | undefined> {
  const mustAsk = review.kind === 'review' && review.mustAsk !== null;
  if (!mustAsk && (ctx.plan.resolved.get(call.name)?.run !== 'ask' || ctx.alwaysAllowed.has(call.name))) return undefined;
  const tool = ctx.plan.permitted.find((t) => t.name === call.name);
  const request = { toolUseId: call.id, name: call.name, server: tool?.server, input: call.input, review: review.kind === 'review' ? { changes: review.changes, mustAsk: review.mustAsk } : null };
  ctx.observer.onApprovalNeeded?.(request);
  const decision = await untilAborted(ctx.approver.approve(request, ctx.signal), ctx.signal, DENIED);
  if (ctx.signal.aborted) return notRun('cancelled', CANCELLED_RESULT);
  if (decision.answer === 'deny') return notRun('denied', deniedText(call.name, review, decision.reason));
  if (decision.answer === 'always_allow' && !mustAsk) {
    ctx.alwaysAllowed.add(call.name);
    ctx.observer.onAlwaysAllowed?.(call.name);
  }
  return undefined;
}

const DENIED: ApprovalDecision = { answer: 'deny', reason: '' };

/** What the model reads of a denial: a change is "rejected" and nothing of it was applied; the user's reason, when given, is quoted. */
function deniedText(name: string, review: CallReview, reason: string): string {
  const said = reason.trim() === '' ? '' : ` The user said: "${reason.trim()}"`;
  if (review.kind === 'review' && review.changes.length > 0) {
    const files = review.changes.map((c) => c.label).join(', ');
    return `The user rejected this change (${files}); nothing was applied.${said} Do not make the same change again; follow what the user said, or ask.`;
  }
  return `The user declined to run ${name}.${said} Do not retry it unless the user asks; continue without it or ask what they prefer.`;
}

/** How a call's result is recorded: why it never ran, where its whole is kept, or that it was stopped while running. */
interface ResultTags {
  readonly notRun?: NotRunReason;
  readonly kept?: KeptResult;
  readonly stopped?: true;
}

/**
 * Runs an MCP tool, its result bounded for the model (the whole kept when it is shortened); a
 * call the user stopped before it returned is recorded as stopped while running (it started, so
 * it may have had effects), not as not run.
 */
/** How long a stopped call may take to hand back what it had (a command's output so far) before the turn answers for it. */
const STOP_GRACE_MS = 2_500;

/** The stopped notice, then what the call itself returned as it stopped. */
function withOwnWords(notice: ToolCallResult, own: ToolCallResult): ToolCallResult {
  const text = own.content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('\n');
  return text.trim() === '' ? notice : { content: [...notice.content, { type: 'text', text: `What it returned as it stopped:\n${text}` }], isError: true };
}

async function runMcpTool(call: ToolUse, ctx: ExecutionContext): Promise<{ readonly result: ToolCallResult; readonly tags: ResultTags }> {
  let progress: CallProgress | undefined;
  const stopped = (): { readonly result: ToolCallResult; readonly tags: ResultTags } => ({ result: errorResult(stoppedWhileRunningText(call.name, progress)), tags: { stopped: true } });
  const aborted = errorResult(CANCELLED_RESULT);
  try {
    const hooks = callHooks(call, ctx, (p) => (progress = p));
    const returned = await untilAborted(ctx.source.call(call.name, call.input, ctx.signal, hooks), ctx.signal, aborted, STOP_GRACE_MS);
    if (returned === aborted) return stopped();
    // Stopped, but it handed back what it had (a command's output so far): the model reads both.
    const result = ctx.signal.aborted ? withOwnWords(errorResult(stoppedWhileRunningText(call.name, undefined)), returned) : returned;
    const shaped = await ctx.results.shape(call.name, result);
    // The checkpoint rides with the shaped result whole: a view of the text never cuts the record of what changed.
    const tags: ResultTags = { ...(shaped.kept ? { kept: shaped.kept } : {}), ...(ctx.signal.aborted ? { stopped: true } : {}) };
    return { result: result.changes ? { ...shaped.result, changes: result.changes } : shaped.result, tags };
  } catch (err) {
    if (ctx.signal.aborted) return stopped();
    return { result: errorResult(`${call.name} failed: ${err instanceof Error ? err.message : String(err)}`), tags: {} };
  }
}

/** What the call's server says while it runs goes to the call's card: its progress, and its questions for the user. */
function callHooks(call: ToolUse, ctx: ExecutionContext, onProgress: (progress: CallProgress) => void): ToolCallHooks {
  const elicitor = ctx.elicitor;
  return {
    callId: call.id,
    onProgress: (progress) => {
      onProgress(progress);
      ctx.observer.onToolProgress?.(call.id, progress);
    },
    ...(elicitor === undefined
      ? {}
      : { onElicitation: (question, signal) => elicitor.ask({ toolUseId: call.id, name: call.name, question }, AbortSignal.any([signal, ctx.signal])) }),
  };
}

/**
 * Checks one call and answers it at once where it needs no MCP server (a refusal, a builtin,
 * a declined approval); returns the result recorder when the MCP tool should run.
 */
async function prepareCall(call: ToolUse, index: number, buffer: CommitBuffer, ctx: ExecutionContext): Promise<Recorder | undefined> {
  const record: Recorder = (result, tags = {}) => buffer.push({ index, kind: 'result', toolUseId: call.id, name: call.name, result, notRun: tags.notRun, ...(tags.kept ? { kept: tags.kept } : {}), ...(tags.stopped ? { stopped: true } : {}) });
  if (ctx.signal.aborted) return void record(errorResult(CANCELLED_RESULT), { notRun: 'cancelled' });
  const refusal = callRefusal(call.name, ctx.plan, ctx.runningServers);
  if (refusal !== undefined) return void record(errorResult(refusal), { notRun: 'refused' });
  if (call.name === SEARCH_TOOLS_NAME) {
    const loaded = ctx.plan.offered.filter((t) => !BUILTIN_NAMES.has(t.name));
    const answer = ctx.builtins.search(call.input, ctx.plan.searchable, loaded, waitingForSignIn(ctx.source, ctx.plan.config));
    if (!answer.ok) return void record(errorResult(answer.message));
    buffer.push(searchEntry(index, call.id, answer, ctx.searchLoadBudget, [...ctx.source.startingServers()].sort()));
    return undefined;
  }
  if (call.name === DESCRIBE_TOOLS_NAME) return void record(ctx.builtins.describe(call.input, ctx.plan.permitted));
  if (call.name === READ_RESULT_NAME) return void record(await ctx.results.read(call.input));
  const review = await ctx.source.review(call.name, call.input, call.id);
  if (review.kind === 'refused') return void record(errorResult(review.reason));
  const declined = await approval(call, review, ctx);
  if (declined) return void record(declined.result, { notRun: declined.reason });
  return record;
}

type Recorder = (result: ToolCallResult, tags?: ResultTags) => void;

/**
 * A search's answer as the buffer holds it until the fold; the lists it names besides its results
 * only when not empty. `starting`: servers still starting, whose tools could not be searched.
 */
function searchEntry(index: number, toolUseId: string, answer: Extract<SearchAnswer, { ok: true }>, loadBudget: number, starting: readonly string[]): BufferEntry {
  const { alreadyLoaded = [], signInRequired = [], waitingForSignIn: waiting = [] } = answer;
  return {
    index,
    kind: 'search',
    toolUseId,
    results: answer.results,
    loadBudget,
    total: answer.total,
    ...(alreadyLoaded.length > 0 ? { alreadyLoaded } : {}),
    ...(signInRequired.length > 0 ? { signInRequired } : {}),
    ...(waiting.length > 0 ? { waitingForSignIn: waiting } : {}),
    ...(starting.length > 0 ? { serversStarting: starting } : {}),
  };
}

/**
 * Executes a reply's tool calls into the cycle's commit buffer, group by group (see
 * callGroups): each call of a group is checked and, where its policy says so, approved in
 * order; then the group's MCP calls run at once. A toggle the user makes meanwhile folds at
 * the call being checked, then at the earliest call still running.
 */
export async function executeCalls(calls: readonly ToolUse[], buffer: CommitBuffer, ctx: ExecutionContext): Promise<void> {
  const finished = (call: ToolUse): void => {
    const own = buffer.entries().find((e) => e.kind !== 'write' && e.toolUseId === call.id);
    ctx.observer.onToolCallFinished?.({ id: call.id, name: call.name, isError: own?.kind === 'result' ? own.result.isError : false });
  };
  for (const group of callGroups(calls, ctx.plan.permitted)) {
    const running: { readonly call: ToolUse; readonly index: number; readonly record: Recorder }[] = [];
    for (const { call, index } of group) {
      buffer.position = index;
      ctx.observer.onToolCallStarted?.({ id: call.id, name: call.name, input: call.input });
      const record = await prepareCall(call, index, buffer, ctx);
      if (record) running.push({ call, index, record });
      else finished(call);
    }
    const pending = new Set(running.map((r) => r.index));
    if (pending.size > 0) buffer.position = Math.min(...pending);
    await Promise.all(running.map(async ({ call, index, record }) => {
      const { result, tags } = await runMcpTool(call, ctx);
      record(result, tags);
      pending.delete(index);
      if (pending.size > 0) buffer.position = Math.min(...pending);
      finished(call);
    }));
  }
  buffer.position = calls.length;
}
