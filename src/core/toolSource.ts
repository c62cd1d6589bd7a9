import type { ServerKeys } from './availability';
import type { ToolCallHooks } from './elicitation/elicitation';
import type { ToolDefinition } from './tools';

/** A piece of a tool result, already shaped for the model. */
export type ToolResultContent =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image'; readonly data: string; readonly mimeType: string };

export interface ToolCallResult {
  readonly content: readonly ToolResultContent[];
  /** True when the tool failed; `content` then says what failed and why, for the model. */
  readonly isError: boolean;
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
  /** Starts a server that is configured but not running (a forced tool needs it), idle ones included. */
  ensureRunning(server: string): Promise<void>;
  /**
   * Servers on their way up (launched, waiting for a start slot, or reading a cached catalogue);
   * their tools are not listed yet, except those of an idle server a call is waking.
   */
  startingServers(): ReadonlySet<string>;
  /** Servers not started because settings turn every tool of theirs off (see serversWithEveryToolOff). */
  offServers(): readonly ServerKeys[];
  /**
   * The configured server (its real name) whose tools a `quiver.tools` key or qualified name
   * can name, running or not; undefined when none. A shortened name does not spell its server.
   */
  serverOfKey(key: string): string | undefined;
  /** Called whenever the catalogue or a server's status changes. */
  onDidChange(listener: () => void): Unsubscribe;
}
