import type { ContextManagementMode } from '../../../src/core/context';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerKeys } from '../../../src/core/availability';
import type { CacheTtlSetting } from '../../../src/core/context/cacheTtl';
import type { ThinkingLevel } from '../../../src/core/models/capabilities';
import type { ResultSettings } from '../../../src/core/results/resultLimit';
import { SETTINGS } from '../../../src/core/settings/registry';

const DEFAULT_MODEL = SETTINGS.model.fallback;
/** quiver.results.* at their defaults. */
export const DEFAULT_RESULTS: ResultSettings = { maxTokens: SETTINGS.resultsMaxTokens.fallback, thresholdTokens: SETTINGS.resultsThresholdTokens.fallback };
import type { StreamEvent } from '../../../src/core/stream/events';
import { ConversationStore } from '../../../src/core/stream/conversationStore';
import type { Conversation } from '../../../src/core/stream/conversation';
import { NO_REVIEW, type CallReview, type SignInWaiting, type ToolCallResult, type ToolSource, type Unsubscribe } from '../../../src/core/tools/toolSource';
import type { ToolDefinition } from '../../../src/core/tools/definitions';
import type { ApprovalAnswer, ApprovalDecision, ApprovalRequest, Approver, BuiltinTools, SearchAnswer, TurnObserver } from '../../../src/core/turn/ports';
import { ConversationSession } from '../../../src/core/turn/session';
import { AnthropicModelClient } from '../../../src/providers/anthropic/anthropicModelClient';
import type { PromotionRendering } from '../../../src/providers/anthropic/rendering';
import type { CacheRules } from '../../fixtures/promptCache';
import { ScriptedMessagesApi, type MessagesBody, type ScriptedApiOptions, type ScriptStep } from '../../fixtures/scriptedMessagesApi';

type Handler = (args: Readonly<Record<string, unknown>>, signal: AbortSignal) => Promise<ToolCallResult>;
export interface FakeServer {
  running: boolean;
  /** Not started because settings turn every tool of it off (the manager's `off` state). */
  off?: boolean;
  /** A start (ensureRunning) finishes only when this settles; instant when absent. */
  startsAfter?: Promise<void>;
  /** Launched at activation and not up yet (the manager's `starting`): it comes up when startsAfter settles. */
  starting?: boolean;
  /** Not started, its tools listed from a cached catalogue (the manager's `idle`): set `running` too. */
  idle?: boolean;
  /** Waits for sign-in (the manager's `signin`): not running; its tools are what its cached catalogue names (none when `tools` is empty). */
  signIn?: boolean;
  /** Replaced by tests that change the catalogue (list_changed, another tools/list order). */
  tools: readonly { readonly name: string; readonly description?: string; readonly readOnly?: boolean; readonly handler?: Handler; readonly review?: (args: Readonly<Record<string, unknown>>) => CallReview }[];
}

const ok = (text: string): ToolCallResult => ({ content: [{ type: 'text', text }], isError: false });

function definitionsOf(server: string, s: FakeServer): ToolDefinition[] {
  return s.tools.map((t) => ({
    name: `${server}__${t.name}`, server, toolName: t.name, description: t.description ?? `The ${t.name} tool of ${server}.`, inputSchema: { type: 'object', properties: { arg: { type: 'string' } } },
    ...(t.readOnly !== undefined ? { annotations: { readOnlyHint: t.readOnly } } : {}),
  }));
}

/** An in-memory ToolSource: the MCP manager's contract without processes. */
export class MemoryToolSource implements ToolSource {
  readonly calls: { name: string; args: Readonly<Record<string, unknown>> }[] = [];
  readonly started: string[] = [];
  constructor(readonly servers: Record<string, FakeServer>) {}

  tools(): ToolDefinition[] {
    return Object.entries(this.servers).flatMap(([server, s]) => (s.running ? definitionsOf(server, s) : []));
  }

  signInServers(): readonly SignInWaiting[] {
    return Object.entries(this.servers).filter(([, s]) => s.signIn === true && !s.running).map(([server, s]) => ({ server, tools: definitionsOf(server, s) }));
  }

  runningServers(): ReadonlySet<string> {
    return new Set(Object.entries(this.servers).filter(([, s]) => s.running).map(([n]) => n));
  }

  review(name: string, args: Readonly<Record<string, unknown>>): Promise<CallReview> {
    const [server, tool] = name.split('__');
    return Promise.resolve(this.servers[server ?? '']?.tools.find((t) => t.name === tool)?.review?.(args) ?? NO_REVIEW);
  }

  async call(name: string, args: Readonly<Record<string, unknown>>, signal: AbortSignal): Promise<ToolCallResult> {
    this.calls.push({ name, args });
    const [server, tool] = name.split('__');
    const handler = this.servers[server ?? '']?.tools.find((t) => t.name === tool)?.handler;
    return handler ? handler(args, signal) : ok(`${name} ran`);
  }

  async ensureRunning(server: string): Promise<void> {
    const s = this.servers[server];
    if (!s) throw new Error(`no server ${server}`);
    this.started.push(server);
    s.off = false;
    await s.startsAfter;
    s.running = true;
    s.starting = false;
    s.idle = false;
  }

  serverOfKey(key: string): string | undefined {
    return Object.keys(this.servers).find((name) => key.startsWith(`${name}__`));
  }

  idleServers(): ReadonlySet<string> {
    return new Set(Object.entries(this.servers).filter(([, s]) => s.idle === true).map(([n]) => n));
  }

  startingServers(): ReadonlySet<string> {
    return new Set(Object.entries(this.servers).filter(([, s]) => s.starting === true && !s.running).map(([n]) => n));
  }

  offServers(): readonly ServerKeys[] {
    return Object.entries(this.servers).filter(([, s]) => s.off === true && !s.running).map(([name]) => ({ name, ownsToolKey: (key: string) => key.startsWith(`${name}__`) }));
  }

  onDidChange(): Unsubscribe {
    return () => undefined;
  }
}

const builtinDef = (name: string, description: string, properties: Record<string, unknown>): ToolDefinition => ({ name, server: undefined, toolName: name, description, inputSchema: { type: 'object', properties } });

/** A stand-in for src/core/search's builtins: case-insensitive substring search, limit clamped to 1–50. */
export const substringBuiltins: BuiltinTools = {
  definitions: [
    builtinDef('search_tools', 'Find more tools by keyword.', { query: { type: 'string' }, limit: { type: 'integer' } }),
    builtinDef('describe_tools', 'Explain tools in full.', { names: { type: 'array', items: { type: 'string' } } }),
  ],
  search(input, searchable): SearchAnswer {
    const query = typeof input['query'] === 'string' ? input['query'].trim().toLowerCase() : '';
    if (query === '') return { ok: false, message: 'search_tools needs a non-empty query.' };
    const limit = Math.min(50, Math.max(1, typeof input['limit'] === 'number' ? input['limit'] : 10));
    const matches = searchable.filter((t) => `${t.name} ${t.description}`.toLowerCase().includes(query));
    // A substring either matches or not: every match scores alike, so relevance never holds one back.
    return { ok: true, results: matches.slice(0, limit).map((t) => ({ name: t.name, summary: t.description, score: 1, tier: 0 })), total: matches.length };
  },
  describe(input, permitted): ToolCallResult {
    const names = Array.isArray(input['names']) ? input['names'] : [];
    return ok(permitted.filter((t) => names.includes(t.name)).map((t) => `${t.name}: ${t.description}`).join('\n'));
  },
  serverIndex(searchable): string {
    return `Searchable servers: ${[...new Set(searchable.map((t) => t.server))].join(', ')}`;
  },
  signInIndex(waiting): string {
    return waiting.length > 0 ? `Waiting for sign-in: ${waiting.map((w) => w.server).join(', ')}` : '';
  },
};

export class ScriptedApprover implements Approver {
  readonly asked: ApprovalRequest[] = [];
  constructor(
    private readonly answers: (ApprovalAnswer | ApprovalDecision)[] = [],
    private readonly before?: (request: ApprovalRequest) => Promise<void>,
  ) {}

  async approve(request: ApprovalRequest): Promise<ApprovalDecision> {
    this.asked.push(request);
    await this.before?.(request);
    const next = this.answers.shift() ?? 'allow_once';
    return typeof next === 'string' ? { answer: next, reason: '' } : next;
  }
}

export interface Harness {
  readonly api: ScriptedMessagesApi;
  readonly store: ConversationStore;
  readonly conversation: Conversation;
  readonly session: ConversationSession;
  readonly source: MemoryToolSource;
  readonly approver: ScriptedApprover;
  readonly live: { text: string; events: StreamEvent[]; alwaysAllowed: string[] };
  settings: { tools: unknown; model: string; thinking: ThinkingLevel; maxCyclesPerTurn: number; searchLoadBudget: number; results: ResultSettings; contextManagement: ContextManagementMode; cacheTtl: CacheTtlSetting };
  /** A fresh session over the same conversation file, as after a window reload. */
  reopen(): Promise<ConversationSession>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  readonly script?: readonly ScriptStep[];
  readonly servers: Record<string, FakeServer>;
  readonly tools?: unknown;
  readonly approver?: ScriptedApprover;
  readonly maxCyclesPerTurn?: number;
  readonly contextManagement?: ContextManagementMode;
  /** quiver.search.maxLoadTokens (default: the setting's). */
  readonly searchLoadBudget?: number;
  readonly maxRetries?: number;
  readonly observer?: TurnObserver;
  readonly promotionRendering?: PromotionRendering;
  /** quiver.model (default: the setting's default, claude-sonnet-5-5). */
  readonly model?: string;
  /** The scripted API's prompt-cache rules (default: Anthropic's). */
  readonly cacheRules?: CacheRules;
  /** quiver.results.* (default: the settings'). */
  readonly results?: ResultSettings;
  /** The scripted API's own options (its models, account, compaction's tool changes). */
  readonly api?: ScriptedApiOptions;
  /** `quiver.cache.ttl` (default: its setting's default). */
  readonly cacheTtl?: CacheTtlSetting;
}

export async function harness(options: HarnessOptions): Promise<Harness> {
  const api = await ScriptedMessagesApi.start(options.script ?? [], options.cacheRules, options.api ?? {});
  const folder = await mkdtemp(join(tmpdir(), 'quiver-turn-'));
  const store = new ConversationStore(folder);
  const conversation = await store.create();
  const source = new MemoryToolSource(options.servers);
  const approver = options.approver ?? new ScriptedApprover();
  const live = { text: '', events: [] as StreamEvent[], alwaysAllowed: [] as string[] };
  const settings = { tools: options.tools ?? {}, model: options.model ?? DEFAULT_MODEL, thinking: 'adaptive' as ThinkingLevel, maxCyclesPerTurn: options.maxCyclesPerTurn ?? 10, searchLoadBudget: options.searchLoadBudget ?? SETTINGS.searchMaxLoadTokens.fallback, results: options.results ?? DEFAULT_RESULTS, contextManagement: options.contextManagement ?? SETTINGS.contextManagement.fallback, cacheTtl: options.cacheTtl ?? SETTINGS.cacheTtl.fallback };
  const model = new AnthropicModelClient({ apiKey: 'test-key', baseURL: api.url, maxRetries: options.maxRetries ?? 0, ...(options.promotionRendering ? { promotionRendering: options.promotionRendering } : {}) });
  const observer: TurnObserver = {
    onText: (d) => (live.text += d),
    onEvent: (e) => live.events.push(e),
    onAlwaysAllowed: (n) => live.alwaysAllowed.push(n),
    ...options.observer,
  };
  const sessionOver = (log: Conversation) =>
    new ConversationSession({ log, model, source, builtins: substringBuiltins, approver, observer, results: store.resultsOf(log.id), settings: () => ({ tools: settings.tools, model: settings.model, maxTokens: 0, thinking: settings.thinking, effort: undefined, maxCyclesPerTurn: settings.maxCyclesPerTurn, searchLoadBudget: settings.searchLoadBudget, results: settings.results, contextManagement: settings.contextManagement, cacheTtl: settings.cacheTtl }) });
  return {
    api, store, conversation, source, approver, live, settings,
    session: sessionOver(conversation),
    reopen: async () => sessionOver((await store.open(conversation.id)).conversation),
    close: async () => {
      await api.close();
      await rm(folder, { recursive: true, force: true });
    },
  };
}

export const toolNames = (body: MessagesBody | undefined): string[] => (body?.tools ?? []).map((t) => t.name);

/**
 * What the model reads of every tool_result in a request's last user message (the latest one,
 * before any appended system message). A result that loads tools holds only its references, and
 * its text stands beside the results, in the same order (see toWire.ts).
 */
export function lastToolResults(body: MessagesBody | undefined): { id: string; text: string; isError: boolean; references: string[] }[] {
  const last = [...(body?.messages ?? [])].reverse().find((m) => m.role === 'user');
  const blocks = last?.content ?? [];
  const beside = blocks.filter((b) => b.type === 'text').map((b) => b.text ?? '');
  return blocks.filter((b) => b.type === 'tool_result').map((b) => {
    const content = b.content ?? [];
    const references = content.filter((c) => c.type === 'tool_reference').map((c) => String(c['tool_name']));
    const own = content.map((c) => c.text ?? '').join('');
    return { id: b.tool_use_id ?? '', text: references.length > 0 ? (beside.shift() ?? '') : own, isError: b.is_error === true, references };
  });
}

export const signal = (): AbortSignal => new AbortController().signal;

/**
 * The tools a request offers the model at its end, by the API's append-only rules: those up
 * front, plus deferred ones a tool_reference or a tool_addition loaded, minus tool_removals.
 */
export function offeredIn(body: MessagesBody | undefined): string[] {
  const offered = new Set((body?.tools ?? []).filter((t) => t.defer_loading !== true).map((t) => t.name));
  for (const m of body?.messages ?? []) {
    for (const b of m.content) {
      if (b.type === 'tool_result') for (const c of b.content ?? []) if (c.type === 'tool_reference') offered.add(String(c['tool_name']));
      const tool = b['tool'] as { name?: string } | undefined;
      if (b.type === 'tool_addition' && tool?.name !== undefined) offered.add(tool.name);
      if (b.type === 'tool_removal' && tool?.name !== undefined) offered.delete(tool.name);
    }
  }
  return [...offered].sort();
}

/** The text of the request's system messages appended after the first message, joined. */
export function appendedSystemText(body: MessagesBody | undefined): string {
  return (body?.messages ?? []).filter((m) => m.role === 'system').flatMap((m) => m.content.filter((b) => b.type === 'text').map((b) => b.text ?? '')).join('\n');
}
