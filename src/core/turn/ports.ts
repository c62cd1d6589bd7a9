import type { ContextManagementMode } from '../context';
import type { CacheTtlSetting } from '../context/cacheTtl';
import type { ChangeSummary } from '../edits/fileChange';
import type { ModelClient, Usage } from '../models/model';
import type { ResultSettings } from '../results/resultLimit';
import type { ResultStore } from '../results/resultStore';
import type { Effort, ThinkingLevel } from '../models/capabilities';
import type { SearchToolsHit } from '../search';
import type { SearchResultStatus, StreamEvent, TurnEndReason } from '../stream/events';
import type { CallProgress, ElicitationAnswer, ElicitationRequest } from '../elicitation/elicitation';
import type { SignInWaiting, ToolCallResult, ToolSource } from '../tools/toolSource';
import type { ToolDefinition } from '../tools/definitions';
import type { EventLog } from './eventLog';

/** Same words as the webview protocol's ApprovalAnswer, so the host passes answers through. */
export type ApprovalAnswer = 'allow_once' | 'always_allow' | 'deny';

export interface ApprovalRequest {
  readonly toolUseId: string;
  readonly name: string;
  readonly server: string | undefined;
  readonly input: Readonly<Record<string, unknown>>;
  /** The files the call would change (shown as a diff before it runs), and why it asks whatever its run policy; null for a call without a review. */
  readonly review: { readonly changes: readonly ChangeSummary[]; readonly mustAsk: string | null } | null;
}

/** The user's answer, and their words for the model when they deny ('' when they gave none). */
export interface ApprovalDecision {
  readonly answer: ApprovalAnswer;
  readonly reason: string;
}

/** The user's say before a tool whose run policy is `ask` runs. Must settle (deny is fine) when the signal aborts. */
export interface Approver {
  approve(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision>;
}

/** A question an MCP server asks while running the call `toolUseId` (`elicitation/create`). */
export interface ElicitationPrompt {
  readonly toolUseId: string;
  readonly name: string;
  readonly question: ElicitationRequest;
}

/** Puts a server's question to the user. Must settle (cancel is fine) when the signal aborts: Stop, or the server gave up. */
export interface Elicitor {
  ask(prompt: ElicitationPrompt, signal: AbortSignal): Promise<ElicitationAnswer>;
}

export interface ToolCallInfo {
  readonly id: string;
  readonly name: string;
  readonly input: Readonly<Record<string, unknown>>;
}

export interface ToolCallFinished {
  readonly id: string;
  readonly name: string;
  readonly isError: boolean;
  readonly found?: readonly { readonly name: string; readonly status: SearchResultStatus }[];
}

/** Live progress for the UI. Every method is optional; none of them may throw or block. */
export interface TurnObserver {
  /** A request is about to leave: which cycle of the turn and which tools it offers. */
  onRequest?(info: { readonly cycle: number; readonly tools: readonly string[] }): void;
  /** The turn waits for these servers to start: it needs a tool of theirs (a forced or promoted one). */
  onWaitingForServers?(servers: readonly string[]): void;
  onText?(delta: string): void;
  /** The model's thinking text as it streams (its progress between tool calls). */
  onThinking?(delta: string): void;
  onToolCallStarted?(call: ToolCallInfo): void;
  onApprovalNeeded?(request: ApprovalRequest): void;
  /** The server of a running call reported progress. */
  onToolProgress?(id: string, progress: CallProgress): void;
  onToolCallFinished?(call: ToolCallFinished): void;
  onUsage?(usage: Usage & { readonly model: string }): void;
  /** The user chose "always allow": the host writes `run: "unattended"` for this tool to settings. */
  onAlwaysAllowed?(name: string): void;
  /** A durable event was appended to the stream. */
  onEvent?(event: StreamEvent): void;
}

/** A search's match behind a server waiting for sign-in, with that server. */
export interface SignInHit extends SearchToolsHit {
  readonly server: string;
}

/**
 * search_tools' answer before promotion: the matches it returns, best first, and how many
 * matched. Which of them load is decided when the cycle folds (see foldCycle). `alreadyLoaded`:
 * matches among the loaded tools, best first (absent or empty when none), never promoted.
 */
export type SearchAnswer =
  | {
      readonly ok: true;
      readonly results: readonly SearchToolsHit[];
      readonly total: number;
      readonly alreadyLoaded?: readonly SearchToolsHit[];
      /** Matches among the known tools of servers waiting for sign-in: named with what the user must do, never loaded. */
      readonly signInRequired?: readonly SignInHit[];
      /** Servers waiting for sign-in whose tools are not known (never listed), so not searched. */
      readonly waitingForSignIn?: readonly string[];
    }
  | { readonly ok: false; readonly message: string };

/**
 * The two builtins (implemented in src/core/search). They only read: promotion is the turn
 * loop's business, fed by the names `search` returns (the host-owned channel of RFD 108).
 */
export interface BuiltinTools {
  /** search_tools and describe_tools as the model sees them. */
  readonly definitions: readonly ToolDefinition[];
  /**
   * Ranks `searchable` (discoverable, not offered) for the model's input (query, limit), and
   * `loaded` (the offered tools, builtins aside) alike into `alreadyLoaded`, and the known tools
   * of the servers in `signIn` into `signInRequired`.
   */
  search(input: Readonly<Record<string, unknown>>, searchable: readonly ToolDefinition[], loaded?: readonly ToolDefinition[], signIn?: readonly SignInWaiting[]): SearchAnswer;
  /** Full documentation of the named tools, from the permitted set. */
  describe(input: Readonly<Record<string, unknown>>, permitted: readonly ToolDefinition[]): ToolCallResult;
  /** The system prompt section naming the servers with discoverable tools and what they hold. */
  serverIndex(discoverable: readonly ToolDefinition[]): string;
  /** The system prompt section naming the servers waiting for sign-in ('' when none). */
  signInIndex(waiting: readonly SignInWaiting[]): string;
}

/** What a turn talks to; the session holds these and hands them to each turn. */
export interface TurnDeps {
  readonly log: EventLog;
  readonly model: ModelClient;
  readonly source: ToolSource;
  readonly builtins: BuiltinTools;
  readonly approver: Approver;
  /** Without it a server's question goes to the tool source's own answerer (if any). */
  readonly elicitor?: Elicitor;
  readonly observer: TurnObserver;
  /** Where this conversation's shortened results are kept whole (ConversationStore.resultsOf). */
  readonly results: ResultStore;
}

/** Settings read at each turn start. */
export interface TurnSettings {
  /** Raw `quiver.tools`. */
  readonly tools: unknown;
  readonly model: string;
  /** `quiver.maxTokens`; 0 means the model's own limit (see maxTokensFor). */
  readonly maxTokens: number;
  readonly thinking: ThinkingLevel;
  /** `quiver.effort`; undefined leaves the model's default. */
  readonly effort: Effort | undefined;
  readonly maxCyclesPerTurn: number;
  /** `quiver.search.maxLoadTokens`: estimated definition tokens one search_tools call may load. */
  readonly searchLoadBudget: number;
  /** `quiver.results.maxTokens` and `quiver.results.thresholdTokens`. */
  readonly results: ResultSettings;
  /** `quiver.context.management` (the bench also asks for one edit alone). */
  readonly contextManagement: ContextManagementMode;
  /** `quiver.cache.ttl`: how long the prompt cache keeps the tools and system prompt. */
  readonly cacheTtl: CacheTtlSetting;
}

export interface TurnResult {
  readonly reason: TurnEndReason | 'refused';
  /** For the user: why the turn stopped early, or why it was refused. */
  readonly message?: string;
}
