import type { ServerKeys } from '../core/availability';
import type { ToolCallResult, ToolSource, Unsubscribe } from '../core/toolSource';
import type { ToolDefinition } from '../core/tools';
import { buildCatalogue, type Catalogue } from './buildCatalogue';
import { describeCallError, formatSeconds } from './describeCallError';
import { Emitter } from './emitter';
import { describeStartFailure, DORMANT_REASON, exitReason, StartupTimeout, untrustedReason } from './failureReasons';
import { resolveOptions, restartDelay, type McpManagerOptions, type ResolvedOptions } from './managerOptions';
import type { ServerTool } from './normalizeTools';
import { ownsToolKey } from './qualifiedNames';
import { isWorkspaceSource, sameServerConfig, type ServerConfig } from './serverConfig';
import { ServerConnection } from './serverConnection';
import type { ServerState, ServerStatus } from './serverStatus';
import { shapeToolResult } from './shapeToolResult';
import { StartQueue } from './startQueue';

interface ServerEntry {
  config: ServerConfig;
  state: ServerState;
  reason: string | undefined;
  connection: ServerConnection | undefined;
  tools: readonly ServerTool[];
  /** Bumped by every (re)start and by removal; callbacks of older attempts compare and bail out. */
  generation: number;
  restarts: number;
  runningSince: number | undefined;
  retryTimer: NodeJS.Timeout | undefined;
  /** Settles (never rejects) when the current start attempt has an outcome. */
  attempt: Promise<void>;
  refreshing: boolean;
  refreshAgain: boolean;
  /** Started on demand (a forced tool, a manual restart) although every tool is off. */
  awake: boolean;
}

/**
 * Runs the configured MCP servers and presents their tools as one catalogue. Starting never
 * blocks the caller: servers start in parallel and report through `onDidChangeStatus`.
 */
export class McpManager implements ToolSource {
  private readonly options: ResolvedOptions;
  private readonly entries = new Map<string, ServerEntry>();
  private readonly statusEvents = new Emitter<ServerStatus>();
  private readonly changeEvents = new Emitter<void>();
  private trusted: boolean;
  private catalogue: Catalogue | undefined;
  private disposed = false;
  private dormant: ReadonlySet<string> = new Set();
  private readonly starts: StartQueue;

  constructor(options: McpManagerOptions) {
    this.options = resolveOptions(options);
    this.trusted = options.workspaceTrusted;
    this.starts = new StartQueue(this.options.maxConcurrentStarts);
  }

  /**
   * Adopts a new set of servers: starts new ones, restarts changed ones, stops removed ones.
   * `dormant` names the servers every one of whose tools is off (see serversWithEveryToolOff):
   * they are not started, and one running is stopped when it joins the set; leaving the set
   * starts it. Both change in one call so a server is never launched with a config about to
   * be replaced. A server started on demand stays up until it joins the set again.
   */
  applyConfig(configs: readonly ServerConfig[], dormant: ReadonlySet<string> = this.dormant): void {
    if (this.disposed) return;
    const next = new Map(configs.map((c) => [c.name, c]));
    for (const [name, entry] of this.entries) {
      if (!next.has(name)) this.remove(name, entry);
    }
    const before = this.dormant;
    this.dormant = new Set(dormant);
    const previous = new Map(this.entries);
    this.entries.clear();
    for (const config of next.values()) {
      const entry = previous.get(config.name);
      if (entry === undefined) {
        const created = newEntry(config);
        this.entries.set(config.name, created);
        this.launch(created);
        continue;
      }
      this.entries.set(config.name, entry);
      if (sameServerConfig(entry.config, config)) {
        this.followDormancy(entry, before);
        continue;
      }
      if (this.dormant.has(config.name) && !before.has(config.name)) entry.awake = false;
      entry.config = config;
      entry.restarts = 0;
      this.launch(entry);
    }
    this.changed();
  }

  /** The same servers with a new dormant set (see applyConfig). */
  setDormant(names: ReadonlySet<string>): void {
    if (this.disposed) return;
    const before = this.dormant;
    this.dormant = new Set(names);
    for (const entry of this.entries.values()) this.followDormancy(entry, before);
  }

  serverOfKey(key: string): string | undefined {
    const owners = [...this.entries.keys()].filter((name) => ownsToolKey(name)(key));
    return owners.find((name) => key.startsWith(`${name}__`)) ?? owners[0];
  }

  offServers(): readonly ServerKeys[] {
    return [...this.entries.values()].filter((e) => e.state === 'off').map((e) => ({ name: e.config.name, ownsToolKey: ownsToolKey(e.config.name) }));
  }

  /** Starts or stops workspace-configured servers as trust changes. */
  setWorkspaceTrusted(trusted: boolean): void {
    if (this.disposed || trusted === this.trusted) return;
    this.trusted = trusted;
    for (const entry of this.entries.values()) {
      if (isWorkspaceSource(entry.config.source)) this.launch(entry);
    }
  }

  /** Restarts one server by hand (resetting its automatic-restart budget); settles when it has an outcome. */
  async restart(name: string): Promise<void> {
    const entry = this.entries.get(name);
    if (entry === undefined || this.disposed) return;
    entry.restarts = 0;
    await this.startOnDemand(entry);
  }

  /** Restarts every server that is meant to run: dormant ones stay stopped. */
  async restartAll(): Promise<void> {
    const names = [...this.entries].filter(([name, entry]) => !this.dormant.has(name) || entry.awake).map(([name]) => name);
    await Promise.all(names.map((name) => this.restart(name)));
  }

  /** Resolves once no server is starting (each has run, failed or been stopped). */
  async whenIdle(): Promise<void> {
    while ([...this.entries.values()].some((e) => e.state === 'starting')) {
      await Promise.all([...this.entries.values()].map((e) => e.attempt));
    }
  }

  statuses(): ServerStatus[] {
    return [...this.entries.values()].map(toStatus);
  }

  status(name: string): ServerStatus | undefined {
    const entry = this.entries.get(name);
    return entry === undefined ? undefined : toStatus(entry);
  }

  onDidChangeStatus(listener: (status: ServerStatus) => void): Unsubscribe {
    return this.statusEvents.on(listener);
  }

  onDidChange(listener: () => void): Unsubscribe {
    return this.changeEvents.on(listener);
  }

  tools(): readonly ToolDefinition[] {
    return this.currentCatalogue().tools;
  }

  runningServers(): ReadonlySet<string> {
    return new Set([...this.entries.values()].filter((e) => e.state === 'running').map((e) => e.config.name));
  }

  startingServers(): ReadonlySet<string> {
    return new Set([...this.entries.values()].filter((e) => e.state === 'starting').map((e) => e.config.name));
  }

  async ensureRunning(server: string): Promise<void> {
    const entry = this.entries.get(server);
    if (entry === undefined) throw new Error(`No MCP server named "${server}" is configured.`);
    if (entry.state === 'failed' || entry.state === 'stopped' || entry.state === 'off') {
      entry.restarts = 0;
      await this.startOnDemand(entry);
    }
    this.starts.hurry(server);
    await entry.attempt;
    if (entry.state !== 'running') throw new Error(`MCP server "${server}" is not running: ${entry.reason ?? entry.state}`);
  }

  async call(name: string, args: Readonly<Record<string, unknown>>, signal: AbortSignal): Promise<ToolCallResult> {
    signal.throwIfAborted();
    const ref = this.currentCatalogue().byName.get(name);
    if (ref === undefined) return errorResult(`No MCP tool is named "${name}". It may have been removed, or its server is not running.`);
    const entry = this.entries.get(ref.server);
    const connection = entry?.connection;
    if (entry?.state !== 'running' || connection === undefined) {
      return errorResult(`MCP server "${ref.server}" is not running${entry?.reason ? `: ${entry.reason}` : '.'}`);
    }
    const context = { server: ref.server, tool: ref.tool };
    try {
      const result = await connection.callTool(ref.tool, args, signal, this.options.callTimeoutMs);
      return shapeToolResult(result, { ...context, maxResultChars: this.options.maxResultChars });
    } catch (error) {
      signal.throwIfAborted();
      return describeCallError(error, { ...context, timeoutMs: this.options.callTimeoutMs, stderrTail: () => connection.stderrTail() });
    }
  }

  /** Stops every server and waits until their process trees are gone. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    const entries = [...this.entries.values()];
    await Promise.all(entries.map((e) => this.stopEntry(e, 'stopped', 'stopped: Quiver is shutting down')));
    await Promise.all(entries.map((e) => e.attempt));
    this.statusEvents.clear();
    this.changeEvents.clear();
  }

  /** Launches despite dormancy; a dormant server that does not come up stays dormant. */
  private async startOnDemand(entry: ServerEntry): Promise<void> {
    entry.awake = true;
    this.launch(entry, true);
    const generation = entry.generation;
    await entry.attempt;
    // A newer launch (a config edit) owns the outcome now; only this attempt's failure counts.
    if (entry.generation === generation && entry.state !== 'running') entry.awake = false;
  }

  private followDormancy(entry: ServerEntry, before: ReadonlySet<string>): void {
    const name = entry.config.name;
    if (this.dormant.has(name) && !before.has(name)) {
      entry.awake = false;
      if (entry.state !== 'off') entry.attempt = this.stopEntry(entry, 'off', DORMANT_REASON);
    } else if (!this.dormant.has(name) && before.has(name) && entry.state === 'off') {
      entry.restarts = 0;
      this.launch(entry);
    }
  }

  private launch(entry: ServerEntry, urgent = false): void {
    const generation = this.supersede(entry);
    const previous = entry.connection;
    entry.connection = undefined;
    if (this.dormant.has(entry.config.name) && !entry.awake) {
      entry.attempt = closeQuietly(previous);
      this.setState(entry, 'off', DORMANT_REASON);
      return;
    }
    if (!this.trusted && isWorkspaceSource(entry.config.source)) {
      entry.attempt = closeQuietly(previous);
      this.setState(entry, 'stopped', untrustedReason(entry.config));
      return;
    }
    this.setState(entry, 'starting', undefined);
    entry.attempt = closeQuietly(previous).then(() => this.starts.run(entry.config.name, () => this.startAttempt(entry, generation), urgent));
  }

  private async startAttempt(entry: ServerEntry, generation: number): Promise<void> {
    if (generation !== entry.generation) return;
    const connection = new ServerConnection(entry.config, {
      clientInfo: this.options.clientInfo,
      logger: this.options.logger,
      listChangedDebounceMs: this.options.listChangedDebounceMs,
      startupTimeoutMs: this.options.startupTimeoutMs,
      maxToolPages: this.options.maxToolPages,
      maxDescriptionChars: this.options.maxDescriptionChars,
      onToolsChanged: () => this.refresh(entry, generation),
      onClosed: () => this.exited(entry, generation),
    });
    entry.connection = connection;
    try {
      const listed = await withDeadline(
        connection.start().then(() => connection.listTools()),
        this.options.startupTimeoutMs,
      );
      if (generation !== entry.generation) return;
      this.logProblems(entry, listed.problems);
      entry.tools = listed.tools;
      entry.runningSince = Date.now();
      this.setState(entry, 'running', undefined);
      this.options.logger.info(`[${entry.config.name}] running with ${listed.tools.length} tools`);
    } catch (error) {
      await connection.close();
      if (generation !== entry.generation) return;
      const failure = describeStartFailure(error, entry.config, connection.stderrTail());
      this.options.logger.error(`[${entry.config.name}] ${failure.reason}`);
      if (failure.retry) this.scheduleRestart(entry, failure.reason);
      else this.setState(entry, 'failed', failure.reason);
    }
  }

  /**
   * The server died on its own: its tools leave at once, then a bounded restart is scheduled.
   * A death while starting is left to `startAttempt`, which sees its pending request fail.
   */
  private exited(entry: ServerEntry, generation: number): void {
    if (generation !== entry.generation || this.disposed || entry.state !== 'running') return;
    const connection = entry.connection;
    const reason = exitReason(connection?.stderrTail() ?? []);
    this.options.logger.error(`[${entry.config.name}] ${reason}`);
    entry.tools = [];
    void closeQuietly(connection);
    this.scheduleRestart(entry, reason);
  }

  private scheduleRestart(entry: ServerEntry, reason: string): void {
    const policy = this.options.restart;
    if (entry.runningSince !== undefined && Date.now() - entry.runningSince >= policy.stableAfterMs) entry.restarts = 0;
    entry.runningSince = undefined;
    if (entry.restarts >= policy.maxAttempts) {
      const tries = policy.maxAttempts === 0 ? 'Automatic restarts are off' : `Gave up after ${policy.maxAttempts} automatic restarts`;
      this.setState(entry, 'failed', `${reason}\n${tries}; restart the server to try again.`);
      return;
    }
    const delay = restartDelay(entry.restarts, policy);
    entry.restarts++;
    this.setState(entry, 'failed', `${reason}\nRestarting in ${formatSeconds(delay)} (attempt ${entry.restarts} of ${policy.maxAttempts}).`);
    entry.retryTimer = setTimeout(() => this.launch(entry), delay);
    entry.retryTimer.unref();
  }

  /** Serialized per server; a failed refresh keeps the last good list. */
  private refresh(entry: ServerEntry, generation: number): void {
    if (entry.refreshing) {
      entry.refreshAgain = true;
      return;
    }
    entry.refreshing = true;
    void this.refreshLoop(entry, generation).finally(() => {
      entry.refreshing = false;
    });
  }

  private async refreshLoop(entry: ServerEntry, generation: number): Promise<void> {
    do {
      entry.refreshAgain = false;
      const connection = entry.connection;
      if (generation !== entry.generation || entry.state !== 'running' || connection === undefined) return;
      try {
        const listed = await connection.listTools();
        if (generation !== entry.generation || entry.state !== 'running') return;
        this.logProblems(entry, listed.problems);
        entry.tools = listed.tools;
        this.setState(entry, 'running', undefined);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        this.options.logger.warn(`[${entry.config.name}] refreshing the tool list failed (${message}); keeping the last ${entry.tools.length} tools`);
      }
    } while (entry.refreshAgain);
  }

  private remove(name: string, entry: ServerEntry): void {
    this.entries.delete(name);
    void this.stopEntry(entry, 'stopped', 'stopped: removed from the configuration');
  }

  private async stopEntry(entry: ServerEntry, state: 'stopped' | 'off', reason: string): Promise<void> {
    this.supersede(entry);
    const connection = entry.connection;
    entry.connection = undefined;
    this.setState(entry, state, reason);
    await closeQuietly(connection);
  }

  /** Invalidates the current attempt and any pending restart; returns the new generation. */
  private supersede(entry: ServerEntry): number {
    clearTimeout(entry.retryTimer);
    entry.retryTimer = undefined;
    entry.tools = [];
    return ++entry.generation;
  }

  private setState(entry: ServerEntry, state: ServerState, reason: string | undefined): void {
    entry.state = state;
    entry.reason = reason;
    if (state !== 'running') entry.tools = [];
    this.statusEvents.fire(toStatus(entry));
    this.changed();
  }

  private changed(): void {
    this.catalogue = undefined;
    this.changeEvents.fire();
  }

  private currentCatalogue(): Catalogue {
    this.catalogue ??= buildCatalogue(
      [...this.entries.values()].filter((e) => e.state === 'running').map((e) => ({ name: e.config.name, tools: e.tools })),
    );
    return this.catalogue;
  }

  private logProblems(entry: ServerEntry, problems: readonly string[]): void {
    for (const problem of problems) this.options.logger.warn(`[${entry.config.name}] ${problem}`);
  }
}

function newEntry(config: ServerConfig): ServerEntry {
  return {
    config,
    state: 'stopped',
    reason: undefined,
    connection: undefined,
    tools: [],
    generation: 0,
    restarts: 0,
    runningSince: undefined,
    retryTimer: undefined,
    attempt: Promise.resolve(),
    refreshing: false,
    refreshAgain: false,
    awake: false,
  };
}

function toStatus(entry: ServerEntry): ServerStatus {
  return {
    name: entry.config.name,
    state: entry.state,
    reason: entry.reason,
    source: entry.config.source,
    toolCount: entry.state === 'running' ? entry.tools.length : 0,
    pid: entry.connection?.pid,
    restarts: entry.restarts,
  };
}

function errorResult(text: string): ToolCallResult {
  return { isError: true, content: [{ type: 'text', text }] };
}

async function closeQuietly(connection: ServerConnection | undefined): Promise<void> {
  await connection?.close().catch(() => undefined);
}

async function withDeadline<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StartupTimeout(timeoutMs)), timeoutMs);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
