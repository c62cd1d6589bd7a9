import type { ServerKeys } from '../availability';
import type { ToolCallHooks } from '../elicitation/elicitation';
import type { ChangeSummary, FileChange } from '../edits/fileChange';
import type { ToolDefinition } from './definitions';

/** A piece of a tool result, already shaped for the model. */
export type ToolResultContent =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image'; readonly data: string; readonly mimeType: string };

export interface ToolCallResult {
  readonly content: readonly ToolResultContent[];
  /** True when the tool failed; `content` then says what failed and why, for the model. */
  readonly isError: boolean;
  /** Files the call changed, recorded in the stream so the turn's changes can be shown and undone (absent when none). */
  readonly changes?: readonly FileChange[];
}

/**
 * What a call would do, worked out before it is approved or run:
 * - `none`: nothing to show; the tool's run policy alone decides whether it asks;
 * - `refused`: it cannot run as asked (a string that does not match, a path in `.git/`): `reason`
 *   is the model's error result, and the user is not asked;
 * - `review`: the files it would change, shown as a diff before it runs when it asks; `mustAsk`
 *   says why it asks whatever its run policy (a path outside the workspace, Quiver's own settings).
 */
export type CallReview =
  | { readonly kind: 'none' }
  | { readonly kind: 'refused'; readonly reason: string }
  | { readonly kind: 'review'; readonly changes: readonly ChangeSummary[]; readonly mustAsk: string | null };

export const NO_REVIEW: CallReview = { kind: 'none' };

/** A configured server that waits for the user to sign in (OAuth) before it lists or runs anything. */
export interface SignInWaiting {
  readonly server: string;
  /** The tools its last listing named (its cached catalogue), under their qualified names; empty when none is known. Never callable. */
  readonly tools: readonly ToolDefinition[];
}

export interface Unsubscribe {
  (): void;
}

/**
 * What the core needs from the MCP layer. src/mcp implements it; src/core never imports
 * src/mcp, so the turn loop and the sets can be tested with any implementation.
 */
export interface ToolSource {
  /** Every tool of every server in runningServers(), under its qualified name. */
  tools(): readonly ToolDefinition[];
  /**
   * Names of the servers whose tools are listed and callable: running ones, and idle ones (see
   * idleServers), whose first call starts them.
   */
  runningServers(): ReadonlySet<string>;
  /**
   * Servers not started because no tool of theirs is on: their tools are listed from the
   * catalogue they listed last time, and a call (or ensureRunning) starts them.
   */
  idleServers(): ReadonlySet<string>;
  /** Runs a tool by qualified name. Rejects only on cancellation; failures come back as `isError`. */
  call(name: string, args: Readonly<Record<string, unknown>>, signal: AbortSignal, hooks?: ToolCallHooks): Promise<ToolCallResult>;
  /**
   * Works out what the call `callId` would do before it is approved; the later `call` with the
   * same `hooks.callId` does exactly what was reviewed, or fails when the files changed meanwhile.
   */
  review(name: string, args: Readonly<Record<string, unknown>>, callId: string): Promise<CallReview>;
  /** Starts a server that is configured but not running (a forced tool needs it), idle ones included. */
  ensureRunning(server: string): Promise<void>;
  /**
   * Servers on their way up (launched, waiting for a start slot, or reading a cached catalogue);
   * their tools are not listed yet, except those of an idle server a call is waking.
   */
  startingServers(): ReadonlySet<string>;
  /** Servers not started because settings turn every tool of theirs off (see serversWithEveryToolOff). */
  offServers(): readonly ServerKeys[];
  /** Servers waiting for sign-in, by name; their tools are not in tools() until the user signs in. */
  signInServers(): readonly SignInWaiting[];
  /**
   * The configured server (its real name) whose tools a `quiver.tools` key or qualified name
   * can name, running or not; undefined when none. A shortened name does not spell its server.
   */
  serverOfKey(key: string): string | undefined;
  /** Called whenever the catalogue or a server's status changes. */
  onDidChange(listener: () => void): Unsubscribe;
}
