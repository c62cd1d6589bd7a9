import type { ServerKeys } from '../core/availability';
import type { ToolCallHooks } from '../core/elicitation';
import { NO_REVIEW, type CallReview, type SignInWaiting, type ToolCallResult, type ToolSource, type Unsubscribe } from '../core/tools';
import type { ToolDefinition } from '../core/tools';
import { untilAborted } from '../core/turn';
import { buildCatalogue, type Catalogue } from './buildCatalogue';
import { CatalogueCache, type CachedCatalogue } from './catalogueCache';
import { describeCallError, formatSeconds } from './describeCallError';
import { answerElicitRequest } from './elicitationBridge';
import { Emitter } from './emitter';
import { describeStartFailure, DORMANT_REASON, exitReason, goneAfterStartText, IDLE_REASON, SIGNED_OUT_REASON, StartupTimeout, untrustedReason, wakeFailureText } from './failureReasons';
import { resolveOptions, restartDelay, type McpManagerOptions, type ResolvedOptions } from './managerOptions';
import type { NormalizedTools } from './normalizeTools';
import { ownsToolKey } from './qualifiedNames';
import { forgetCredentials, readCredentials } from './oauth/serverCredentials';
import type { SignInReason } from './oauth/signInBrowser';
import { NONE_RESTING, type RestingServers } from './restingServers';
import { isWorkspaceSource, sameServerConfig, type ServerConfig } from './serverConfig';
import { ServerConnection } from './serverConnection';
import type { ServerPrompt, ServerResource } from './serverFeatures';
import type { ElicitRequest, ElicitResult, GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { listingOf, newEntry, toStatus, type ServerEntry } from './serverEntry';
import type { ServerState, ServerStatus } from './serverStatus';
import { shapeToolResult } from './shapeToolResult';
import { StartQueue } from './startQueue';

/**
 * Runs the configured MCP servers and presents their tools as one catalogue. Starting never
 * blocks the caller: servers start in parallel and report through `onDidChangeStatus`. A server
 * settings let rest with a cached catalogue (RestingServers.idle) is listed without a process
 * and starts at the first call of one of its tools.
 */
export class McpManager implements ToolSource {
  private readonly options: ResolvedOptions;
  private readonly entries = new Map<string, ServerEntry>();
  private readonly statusEvents = new Emitter<ServerStatus>();
  private readonly changeEvents = new Emitter<void>();
  private trusted: boolean;
  private catalogue: Catalogue | undefined;
  private disposed = false;
  private resting: RestingServers = NONE_RESTING;
  private readonly starts: StartQueue;
  private readonly cache: CatalogueCache | undefined;

  constructor(options: McpManagerOptions) {
    this.options = resolveOptions(options);
    this.trusted = options.workspaceTrusted;
    this.starts = new StartQueue(this.options.maxConcurrentStarts);
    const dir = options.catalogueCacheDir;
    this.cache = dir === undefined ? undefined : new CatalogueCache(dir, this.options.logger);
  }

  /**
   * Adopts a new set of servers: starts new ones, restarts changed ones, stops removed ones.
   * `resting` names the servers settings let rest. An `off` one is not started, and one running
   * is stopped when it joins the set; leaving the set starts it, even with a cached catalogue.
   * An `idle` one with a cached catalogue is not started when launched (here, or later by a
   * restart of its own accord); leaving the set starts it, joining it leaves a running one up.
   * Both change in one call so a server is never launched with a config about to be replaced.
   * A server started on demand stays up until it joins the off set again.
   */
  applyConfig(configs: readonly ServerConfig[], resting: RestingServers = this.resting): void {
    if (this.disposed) return;
    const next = new Map(configs.map((c) => [c.name, c]));
    for (const [name, entry] of this.entries) {
      if (!next.has(name)) this.remove(name, entry);
    }
    const before = this.resting;
    this.resting = resting;
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
        this.followResting(entry, before);
        continue;
      }
      if (this.resting.off.has(config.name) && !before.off.has(config.name)) entry.awake = false;
      entry.config = config;
      // Cached for the old launch configuration: it says nothing of what the new one lists.
      entry.cached = undefined;
      entry.restarts = 0;
      this.launch(entry);
    }
    this.changed();
  }

  /** The same servers with new resting sets (see applyConfig). */
  setResting(resting: RestingServers): void {
    if (this.disposed) return;
    const before = this.resting;
    this.resting = resting;
    for (const entry of this.entries.values()) this.followResting(entry, before);
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

  /**
   * Restarts one server by hand (resetting its automatic-restart budget); settles when it has an
   * outcome. It opens no sign-in page (Restart All would open one per server): one that needs
   * sign-in waits as *Sign in required*.
   */
  async restart(name: string): Promise<void> {
    await this.startNamed(name, undefined);
  }

  /** Starts a server the user asked to sign in to: its sign-in page opens. Settles when it runs or failed. */
  async signIn(name: string): Promise<void> {
    await this.startNamed(name, 'signIn');
  }

  private async startNamed(name: string, reason: SignInReason | undefined): Promise<void> {
    const entry = this.entries.get(name);
    if (entry === undefined || this.disposed) return;
    await this.startOnDemand(entry, reason);
  }

  /**
   * Another window signed in to (or out of) the server at `serverUrl`: a server here that waits
   * for sign-in tries again with what is stored now, without opening anything.
   */
  async credentialsChanged(serverUrl: string): Promise<void> {
    const store = this.options.signIn?.store;
    if (this.disposed || store === undefined) return;
    // A sign-out (or a registration alone) gives nothing to start with: only tokens do.
    if ((await readCredentials(store, serverUrl)).tokens === undefined) return;
    for (const entry of this.entries.values()) {
      if (entry.state === 'signin' && entry.config.transport !== 'stdio' && entry.config.url === serverUrl) this.launch(entry);
    }
  }

  /**
   * Forgets the server's tokens and registration (in the secret store, which every window
   * shares), then starts it again without them: it waits as *Sign in required*.
   */
  async signOut(name: string): Promise<void> {
    const entry = this.entries.get(name);
    const store = this.options.signIn?.store;
    if (entry === undefined || this.disposed || store === undefined || entry.config.transport === 'stdio') return;
    await this.stopEntry(entry, 'signin', SIGNED_OUT_REASON);
    await forgetCredentials(store, entry.config.url);
    entry.signedIn = false;
    this.setState(entry, 'signin', SIGNED_OUT_REASON);
    this.options.logger.info(`[${entry.config.name}] signed out`);
    await this.rememberCatalogue(entry, entry.generation);
  }

  /** Restarts every server that is meant to run: off and idle ones stay as they are. */
  async restartAll(): Promise<void> {
    const names = [...this.entries].filter(([name, entry]) => (!this.resting.off.has(name) || entry.awake) && entry.state !== 'idle').map(([name]) => name);
    await Promise.all(names.map((name) => this.restart(name)));
  }

  /** Resolves once no server is starting (each has run, failed, been stopped or gone idle). */
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

  /** Servers whose tools are listed: running ones, and idle ones (or waking from idle) listed from their cache. */
  runningServers(): ReadonlySet<string> {
    return new Set([...this.entries.values()].filter((e) => listingOf(e) !== undefined).map((e) => e.config.name));
  }

  /** Servers waiting for sign-in, each with the tools its cached catalogue names under their qualified names (never callable). */
  signInServers(): readonly SignInWaiting[] {
    const waiting = [...this.entries.values()].filter((e) => e.state === 'signin');
    const named = buildCatalogue(waiting.map((e) => ({ name: e.config.name, tools: e.cached?.tools ?? [] })));
    return waiting.map((e) => ({ server: e.config.name, tools: named.tools.filter((t) => t.server === e.config.name) }));
  }

  startingServers(): ReadonlySet<string> {
    return this.serversIn('starting');
  }

  idleServers(): ReadonlySet<string> {
    return this.serversIn('idle');
  }

  async ensureRunning(server: string): Promise<void> {
    // A turn still running at shutdown must not launch a process nothing will stop.
    if (this.disposed) throw new Error(`Quiver is shutting down: MCP server "${server}" was not started.`);
    const entry = this.entries.get(server);
    if (entry === undefined) throw new Error(`No MCP server named "${server}" is configured.`);
    // A start under way is awaited, not repeated; one that was only reading its cache and went idle still starts.
    if (entry.state === 'starting') await this.settled(entry);
    else if (entry.state !== 'running') await this.startOnDemand(entry, 'toolCall');
    if (entry.state === 'idle') await this.startOnDemand(entry, 'toolCall');
    if (entry.state !== 'running') throw new Error(`MCP server "${server}" is not running: ${entry.reason ?? entry.state}`);
  }

  /** An MCP tool's effects are its server's to know: its run policy alone decides whether it asks. */
  review(): Promise<CallReview> {
    return Promise.resolve(NO_REVIEW);
  }

  async call(name: string, args: Readonly<Record<string, unknown>>, signal: AbortSignal, hooks: ToolCallHooks = {}): Promise<ToolCallResult> {
    signal.throwIfAborted();
    const ref = this.currentCatalogue().byName.get(name);
    if (ref === undefined) return errorResult(`No MCP tool is named "${name}". It may have been removed, or its server is not running.`);
    const entry = this.entries.get(ref.server);
    if (entry !== undefined && entry.state !== 'running' && entry.cached !== undefined) {
      const woke = await untilAborted(this.ensureRunning(ref.server).then(() => true, () => false), signal, false);
      signal.throwIfAborted();
      if (!woke) return errorResult(wakeFailureText(ref.tool, ref.server, entry.reason));
    }
    const connection = entry?.connection;
    if (entry?.state !== 'running' || connection === undefined) {
      return errorResult(`MCP server "${ref.server}" is not running${entry?.reason ? `: ${entry.reason}` : '.'}`);
    }
    // The name may come from a cached catalogue the started server no longer agrees with.
    if (!entry.tools.some((t) => t.name === ref.tool)) return errorResult(goneAfterStartText(ref.tool, ref.server, entry.tools.length));
    const context = { server: ref.server, tool: ref.tool };
    entry.calls.push(hooks);
    try {
      const progress = hooks.onProgress;
      const onProgress = progress === undefined ? undefined : (p: { progress: number; total?: number; message?: string }) => progress({ progress: p.progress, total: p.total, message: p.message });
      const result = await connection.callTool(ref.tool, args, signal, this.options.callTimeoutMs, onProgress === undefined ? {} : { onProgress });
      return shapeToolResult(result, { ...context, maxResultChars: this.options.maxResultChars });
    } catch (error) {
      signal.throwIfAborted();
      return describeCallError(error, { ...context, config: entry.config, timeoutMs: this.options.callTimeoutMs, stderrTail: () => connection.stderrTail() });
    } finally {
      entry.calls.splice(entry.calls.indexOf(hooks), 1);
      await this.noteSignIn(entry, connection);
    }
  }

  /** The prompts of every running server, offered as slash commands `/server.prompt`. */
  prompts(): readonly ServerPrompt[] {
    return [...this.entries.values()].flatMap((e) => (e.state === 'running' ? e.prompts : []));
  }

  /** The resources of every running server, attachable to a message. */
  resources(): readonly ServerResource[] {
    return [...this.entries.values()].flatMap((e) => (e.state === 'running' ? e.resources : []));
  }

  /** `prompts/get` of a running server; rejects with a message for the user when it cannot be had. */
  async getPrompt(server: string, name: string, args: Readonly<Record<string, string>>, signal: AbortSignal): Promise<GetPromptResult> {
    return this.runningConnection(server).getPrompt(name, args, signal);
  }

  async readResource(server: string, uri: string, signal: AbortSignal): Promise<ReadResourceResult> {
    return this.runningConnection(server).readResource(uri, signal);
  }

  /** Stops every server and waits until their process trees are gone. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    const entries = [...this.entries.values()];
    await Promise.all(entries.map((e) => this.stopEntry(e, 'stopped', 'stopped: Quiver is shutting down')));
    await Promise.all(entries.map((e) => e.attempt));
    await this.cache?.flush();
    this.statusEvents.clear();
    this.changeEvents.clear();
  }

  private runningConnection(server: string): ServerConnection {
    const entry = this.entries.get(server);
    if (entry?.state !== 'running' || entry.connection === undefined) throw new Error(`MCP server "${server}" is not running${entry?.reason === undefined ? '' : `: ${entry.reason}`}`);
    return entry.connection;
  }

  /**
   * Launches despite resting sets, ahead of the queue (with a fresh restart budget); a resting
   * server that does not come up goes back to resting at its next launch. Settles when the
   * server runs or failed.
   */
  private async startOnDemand(entry: ServerEntry, reason: SignInReason | undefined): Promise<void> {
    entry.restarts = 0;
    entry.awake = true;
    entry.signInReason = reason;
    this.launch(entry, true);
    const generation = entry.generation;
    await entry.attempt;
    // A newer launch (a config edit) owns the outcome now; only this attempt's failure counts.
    if (entry.generation === generation && entry.state !== 'running') entry.awake = false;
    await this.settled(entry);
  }

  /** Waits for the entry's current attempt, moving its start to the front of the queue. */
  private async settled(entry: ServerEntry): Promise<void> {
    this.starts.hurry(entry.config.name);
    await entry.attempt;
  }

  private followResting(entry: ServerEntry, before: RestingServers): void {
    const name = entry.config.name;
    const off = this.resting.off.has(name);
    if (off && !before.off.has(name)) {
      entry.awake = false;
      if (entry.state !== 'off') entry.attempt = this.stopEntry(entry, 'off', DORMANT_REASON);
    } else if (!off && before.off.has(name) && entry.state === 'off') {
      // Turned back on or discoverable by hand: started, as that edit asks, rather than left idle on its cache.
      entry.restarts = 0;
      entry.awake = true;
      this.launch(entry);
    } else if (!this.resting.idle.has(name) && entry.state === 'idle') {
      // One of its tools is on now: it is offered up front, so the server should be up.
      this.launch(entry);
    }
  }

  private launch(entry: ServerEntry, urgent = false): void {
    const generation = this.supersede(entry);
    const previous = entry.connection;
    entry.connection = undefined;
    if (this.resting.off.has(entry.config.name) && !entry.awake) {
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
    entry.attempt = closeQuietly(previous).then(() => this.idleOrStart(entry, generation, urgent));
  }

  /** A server settings let idle, with a cached catalogue, stays unstarted and lists the cached tools; any other starts. */
  private async idleOrStart(entry: ServerEntry, generation: number, urgent: boolean): Promise<void> {
    if (this.cache !== undefined && this.mayIdle(entry)) {
      const cached = await this.cache.read(entry.config);
      // Re-checked: a tool turned on during the read takes the server out of the idle set.
      if (generation !== entry.generation) return;
      if (cached !== undefined && this.mayIdle(entry)) {
        entry.cached = cached;
        const signedOut = await this.signedOut(entry, cached);
        if (generation !== entry.generation) return;
        this.setState(entry, signedOut ? 'signin' : 'idle', signedOut ? SIGNED_OUT_REASON : IDLE_REASON);
        if (signedOut) return;
        this.options.logger.info(`[${entry.config.name}] not started: ${cached.tools.length} tools listed from its catalogue of ${new Date(cached.listedAt).toISOString()}`);
        return;
      }
    }
    await this.starts.run(entry.config.name, () => this.startAttempt(entry, generation), urgent);
  }

  /** Its catalogue was listed over a sign-in that is no longer stored (Sign Out, another keychain): it waits for one again. */
  private async signedOut(entry: ServerEntry, cached: CachedCatalogue): Promise<boolean> {
    const store = this.options.signIn?.store;
    if (cached.signedIn !== true || store === undefined || entry.config.transport === 'stdio') return false;
    return (await readCredentials(store, entry.config.url)).tokens === undefined;
  }

  /** A server waiting for sign-in keeps the tools it last listed (from the cache) to be named, never called. */
  private async rememberCatalogue(entry: ServerEntry, generation: number): Promise<void> {
    if (entry.cached !== undefined || this.cache === undefined) return;
    const cached = await this.cache.read(entry.config);
    if (cached === undefined || generation !== entry.generation || entry.state !== 'signin') return;
    entry.cached = cached;
    this.changed();
  }

  private mayIdle(entry: ServerEntry): boolean {
    return this.resting.idle.has(entry.config.name) && !entry.awake;
  }

  private async startAttempt(entry: ServerEntry, generation: number): Promise<void> {
    if (generation !== entry.generation) return;
    const signInReason = entry.signInReason;
    entry.signInReason = undefined;
    const connection = new ServerConnection(entry.config, {
      clientInfo: this.options.clientInfo,
      logger: this.options.logger,
      listChangedDebounceMs: this.options.listChangedDebounceMs,
      startupTimeoutMs: this.options.startupTimeoutMs,
      maxToolPages: this.options.maxToolPages,
      maxDescriptionChars: this.options.maxDescriptionChars,
      onToolsChanged: () => this.refresh(entry, generation),
      onFeaturesChanged: () => void this.listFeatures(entry, generation),
      onClosed: () => this.exited(entry, generation),
      signIn: this.options.signIn,
      // Declared only when the host can answer (a call's hooks go to the call that asked; the rest to this answerer).
      onElicitation: this.options.elicitation === undefined ? undefined : (params, signal) => this.elicit(entry, params, signal),
    });
    entry.connection = connection;
    // The user's time in the browser is not the server's start-up time.
    const signInTime = signInReason === undefined ? 0 : (this.options.signIn?.callbackTimeoutMs ?? 0);
    try {
      const listed = await withDeadline(
        connection.start(signInReason).then(() => connection.listTools(signInReason)),
        this.options.startupTimeoutMs + signInTime,
      );
      if (generation !== entry.generation) return;
      entry.signedIn = await connection.signedIn();
      this.adoptListing(entry, connection, listed);
      entry.runningSince = Date.now();
      this.setState(entry, 'running', undefined);
      this.options.logger.info(`[${entry.config.name}] running with ${listed.tools.length} tools`);
      void this.listFeatures(entry, generation);
    } catch (error) {
      await connection.close();
      if (generation !== entry.generation) return;
      const failure = describeStartFailure(error, entry.config, connection.stderrTail());
      // Waiting for sign-in is no error: the Tools view asks for it.
      if (failure.signIn === true) this.options.logger.info(`[${entry.config.name}] ${failure.reason}`);
      else this.options.logger.error(`[${entry.config.name}] ${failure.reason}`);
      if (failure.retry) this.scheduleRestart(entry, failure.reason);
      else this.setState(entry, failure.signIn === true ? 'signin' : 'failed', failure.reason);
      if (failure.signIn === true) await this.rememberCatalogue(entry, generation);
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

  /** A call may have signed in (or lost the sign-in): the status follows, so Sign Out shows when it applies. */
  private async noteSignIn(entry: ServerEntry, connection: ServerConnection): Promise<void> {
    const signedIn = await connection.signedIn().catch(() => entry.signedIn);
    if (signedIn === entry.signedIn || entry.connection !== connection) return;
    entry.signedIn = signedIn;
    this.statusEvents.fire(toStatus(entry));
  }

  /** Reads the prompts and resources of a server that runs; they are extras, so nothing waits for them. */
  private async listFeatures(entry: ServerEntry, generation: number): Promise<void> {
    const connection = entry.connection;
    if (connection === undefined || generation !== entry.generation) return;
    const features = await connection.listFeatures().catch(() => undefined);
    if (features === undefined) return;
    const { prompts, resources } = features;
    if (generation !== entry.generation || entry.state !== 'running') return;
    entry.prompts = prompts;
    entry.resources = resources;
    this.changed();
  }

  /** A server's question goes to the newest call of it that listens for questions, else to the manager's answerer. */
  private async elicit(entry: ServerEntry, params: ElicitRequest['params'], signal: AbortSignal): Promise<ElicitResult> {
    const answer = [...entry.calls].reverse().find((h) => h.onElicitation !== undefined)?.onElicitation ?? this.options.elicitation;
    if (answer === undefined) return { action: 'decline' };
    return answerElicitRequest(entry.config.name, params, answer, signal);
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
        this.adoptListing(entry, connection, listed);
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

  private async stopEntry(entry: ServerEntry, state: 'stopped' | 'off' | 'signin', reason: string): Promise<void> {
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
    entry.prompts = [];
    entry.resources = [];
    return ++entry.generation;
  }

  /** Takes a list the server just gave as its live catalogue, and caches it for the next launch. */
  private adoptListing(entry: ServerEntry, connection: ServerConnection, listed: NormalizedTools): void {
    this.logProblems(entry, listed.problems);
    entry.tools = listed.tools;
    entry.listedAt = Date.now();
    void this.cache?.write(entry.config, { server: connection.serverInfo(), listedAt: entry.listedAt, tools: listed.tools, ...(entry.signedIn ? { signedIn: true } : {}) });
  }

  private setState(entry: ServerEntry, state: ServerState, reason: string | undefined): void {
    entry.state = state;
    entry.reason = reason;
    if (state !== 'running') entry.tools = [];
    // Kept while idle, while waking from idle and while waiting for sign-in (named, not listed); a live list (or no list at all) replaces it.
    if (state !== 'idle' && state !== 'starting' && state !== 'signin') entry.cached = undefined;
    this.statusEvents.fire(toStatus(entry));
    this.changed();
  }

  private serversIn(state: ServerState): ReadonlySet<string> {
    return new Set([...this.entries.values()].filter((e) => e.state === state).map((e) => e.config.name));
  }

  private changed(): void {
    this.catalogue = undefined;
    this.changeEvents.fire();
  }

  private currentCatalogue(): Catalogue {
    this.catalogue ??= buildCatalogue(
      [...this.entries.values()].flatMap((e) => {
        const listing = listingOf(e);
        return listing === undefined ? [] : [{ name: e.config.name, tools: listing.tools }];
      }),
    );
    return this.catalogue;
  }

  private logProblems(entry: ServerEntry, problems: readonly string[]): void {
    for (const problem of problems) this.options.logger.warn(`[${entry.config.name}] ${problem}`);
  }
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
