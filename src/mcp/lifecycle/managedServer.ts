import type { ToolCallHooks } from '../../core/elicitation';
import type { ToolCallResult } from '../../core/tools';
import { untilAborted } from '../../core/turn';
import { signInLapsed, type CachedCatalogue } from '../catalogue/catalogueCache';
import type { NormalizedTools, ServerTool } from '../catalogue/normalizeTools';
import { isWorkspaceSource, sameServerConfig, type ServerConfig } from '../config/serverConfig';
import type { RestingServers } from '../config/restingServers';
import { closeQuietly, ServerConnection } from '../connection/serverConnection';
import { ServerExtras } from '../features/serverExtras';
import { forgetCredentials } from '../oauth/serverCredentials';
import type { SignInReason } from '../oauth/signInBrowser';
import { toolError } from '../results/toolError';
import { CoalescingRunner } from './coalescingRunner';
import { describeStartFailure, DORMANT_REASON, exitReason, goneAfterStartText, IDLE_REASON, notRunningText, SIGNED_OUT_REASON, untrustedReason, wakeFailureText, type StartFailure } from './failureReasons';
import { RestartBudget } from './restartBudget';
import { restingStep } from './restingStep';
import { ServerCalls } from './serverCalls';
import { listingOf, toStatus, type Listing, type ServerFacts } from './serverListing';
import type { ServerState, ServerStatus } from './serverStatus';
import type { ServerSurroundings } from './serverSurroundings';
import { startAndList } from './startupDeadline';

/**
 * One configured server: its launches, the connection of the current one, its status and what it
 * lists. Every change of state is told to the surroundings (statusChanged, listingChanged).
 * Each launch bumps `generation`; the callbacks of an older launch compare and bail out.
 */
export class ManagedServer {
  private state: ServerState = 'stopped';
  private reason: string | undefined;
  private connection: ServerConnection | undefined;
  /** The live list while running; empty otherwise. */
  private tools: readonly ServerTool[] = [];
  private listedAt: number | undefined;
  /** The cached catalogue of the current config, listed while idle or waking from idle, and named while waiting for sign-in. */
  private cached: CachedCatalogue | undefined;
  private generation = 0;
  /** Settles (never rejects) when the current start attempt (or cache read) has an outcome. */
  private attempt: Promise<void> = Promise.resolve();
  /** Started on demand (a call, a forced tool, a manual restart) although settings let it rest. */
  private awake = false;
  /** Why the next start attempt may open a sign-in page (a start the user asked for); taken by that attempt. */
  private signInReason: SignInReason | undefined;
  /** The last start reached the server with OAuth tokens. */
  private signedIn = false;
  private readonly extras = new ServerExtras();
  private readonly budget: RestartBudget;
  private readonly calls: ServerCalls;

  constructor(
    private config: ServerConfig,
    private readonly around: ServerSurroundings,
  ) {
    this.budget = new RestartBudget(around.options.restart);
    this.calls = new ServerCalls(around.options);
  }

  get name(): string {
    return this.config.name;
  }

  get currentState(): ServerState {
    return this.state;
  }

  get configuredInWorkspace(): boolean {
    return isWorkspaceSource(this.config.source);
  }

  status(): ServerStatus {
    return toStatus(this.facts());
  }

  /** The tools it puts in the catalogue (see listingOf). */
  listing(): Listing | undefined {
    return listingOf(this.facts());
  }

  /** The tools its cached catalogue names (a server waiting for sign-in names them, never calls them). */
  cachedTools(): readonly ServerTool[] {
    return this.cached?.tools ?? [];
  }

  /** Its prompts and resources while it runs. */
  runningExtras(): Pick<ServerExtras, 'prompts' | 'resources'> | undefined {
    return this.state === 'running' ? this.extras : undefined;
  }

  /** Settles when the current attempt has an outcome. */
  settled(): Promise<void> {
    return this.attempt;
  }

  /** Restart All restarts it: settings do not let it rest, or it was started on demand. */
  meantToRun(): boolean {
    return (!this.around.resting().off.has(this.name) || this.awake) && this.state !== 'idle';
  }

  /** Follows an edit of the settings: a new launch configuration restarts it, else only the resting sets count. */
  reconfigure(config: ServerConfig, before: RestingServers): void {
    if (sameServerConfig(this.config, config)) {
      this.followResting(before);
      return;
    }
    if (this.around.resting().off.has(this.name) && !before.off.has(this.name)) this.awake = false;
    this.config = config;
    // Cached for the old launch configuration: it says nothing of what the new one lists.
    this.cached = undefined;
    this.budget.refill();
    this.launch();
  }

  /** Follows a change of the resting sets from `before` to the current ones (see restingStep). */
  followResting(before: RestingServers): void {
    const step = restingStep(this.name, this.state, before, this.around.resting());
    if (step === 'rest') {
      this.awake = false;
      if (this.state !== 'off') this.attempt = this.stop('off', DORMANT_REASON);
    } else if (step === 'wake') {
      this.budget.refill();
      this.awake = true;
      this.launch();
    } else if (step === 'start') {
      this.launch();
    }
  }

  /** Starts it unless settings let it rest or the workspace is not trusted; `urgent` goes ahead of the queue. */
  launch(urgent = false): void {
    const generation = this.supersede();
    const previous = this.connection;
    this.connection = undefined;
    if (this.around.resting().off.has(this.name) && !this.awake) {
      this.attempt = closeQuietly(previous);
      this.setState('off', DORMANT_REASON);
      return;
    }
    if (!this.around.trusted() && this.configuredInWorkspace) {
      this.attempt = closeQuietly(previous);
      this.setState('stopped', untrustedReason(this.config));
      return;
    }
    this.setState('starting', undefined);
    this.attempt = closeQuietly(previous).then(() => this.idleOrStart(generation, urgent));
  }

  /**
   * Launches despite resting sets, ahead of the queue (with a fresh restart budget); a resting
   * server that does not come up goes back to resting at its next launch. Settles when the
   * server runs or failed.
   */
  async startOnDemand(reason: SignInReason | undefined): Promise<void> {
    this.budget.refill();
    this.awake = true;
    this.signInReason = reason;
    this.launch(true);
    const generation = this.generation;
    await this.attempt;
    // A newer launch (a config edit) owns the outcome now; only this attempt's failure counts.
    if (this.generation === generation && this.state !== 'running') this.awake = false;
    await this.hurried();
  }

  /** Running when it settles, or rejects with why not. */
  async ensureRunning(): Promise<void> {
    // A turn still running at shutdown must not launch a process nothing will stop.
    if (this.around.shuttingDown()) throw new Error(`Quiver is shutting down: MCP server "${this.name}" was not started.`);
    // A start under way is awaited, not repeated; one that was only reading its cache and went idle still starts.
    if (this.state === 'starting') await this.hurried();
    else if (this.state !== 'running') await this.startOnDemand('toolCall');
    if (this.state === 'idle') await this.startOnDemand('toolCall');
    if (this.state !== 'running') throw new Error(`MCP server "${this.name}" is not running: ${this.reason ?? this.state}`);
  }

  /** Stops the current attempt or process; settles when its process tree is gone. */
  async stop(state: 'stopped' | 'off' | 'signin', reason: string): Promise<void> {
    this.supersede();
    const connection = this.connection;
    this.connection = undefined;
    this.setState(state, reason);
    await closeQuietly(connection);
  }

  /** Another window stored a sign-in for `serverUrl`: waiting for one, it tries again with it. */
  retryWithStoredSignIn(serverUrl: string): void {
    if (this.state === 'signin' && this.config.transport !== 'stdio' && this.config.url === serverUrl) this.launch();
  }

  /** Forgets its tokens and registration (shared by every window) and waits as *Sign in required*. */
  async signOut(): Promise<void> {
    const store = this.around.options.signIn?.store;
    if (store === undefined || this.config.transport === 'stdio') return;
    await this.stop('signin', SIGNED_OUT_REASON);
    await forgetCredentials(store, this.config.url);
    this.signedIn = false;
    this.setState('signin', SIGNED_OUT_REASON);
    this.around.options.logger.info(`[${this.name}] signed out`);
    await this.rememberCatalogue(this.generation);
  }

  /** Calls one of its tools, starting it first when the tool was listed from its cache. */
  async call(tool: string, args: Readonly<Record<string, unknown>>, signal: AbortSignal, hooks: ToolCallHooks): Promise<ToolCallResult> {
    if (this.state !== 'running' && this.cached !== undefined) {
      const woke = await untilAborted(this.ensureRunning().then(() => true, () => false), signal, false);
      signal.throwIfAborted();
      if (!woke) return toolError(wakeFailureText(tool, this.name, this.reason));
    }
    const connection = this.connection;
    if (this.state !== 'running' || connection === undefined) return toolError(notRunningText(this.name, this.reason));
    // The name may come from a cached catalogue the started server no longer agrees with.
    if (!this.tools.some((t) => t.name === tool)) return toolError(goneAfterStartText(tool, this.name, this.tools.length));
    try {
      return await this.calls.run(connection, this.config, tool, args, signal, hooks);
    } finally {
      await this.noteSignIn(connection);
    }
  }

  /** The connection of the running server (for its prompts and resources); throws a message for the user when it does not run. */
  runningConnection(): ServerConnection {
    if (this.state !== 'running' || this.connection === undefined) throw new Error(`MCP server "${this.name}" is not running${this.reason === undefined ? '' : `: ${this.reason}`}`);
    return this.connection;
  }

  /** Moves its waiting start to the front of the queue and waits for the attempt. */
  private async hurried(): Promise<void> {
    this.around.starts.hurry(this.name);
    await this.attempt;
  }

  /** A server settings let idle, with a cached catalogue, stays unstarted and lists the cached tools; any other starts. */
  private async idleOrStart(generation: number, urgent: boolean): Promise<void> {
    const cache = this.around.cache;
    if (cache !== undefined && this.mayIdle()) {
      const cached = await cache.read(this.config);
      // Re-checked: a tool turned on during the read takes the server out of the idle set.
      if (generation !== this.generation) return;
      if (cached !== undefined && this.mayIdle()) {
        this.cached = cached;
        const signedOut = await signInLapsed(cached, this.config, this.around.options.signIn?.store);
        if (generation !== this.generation) return;
        this.setState(signedOut ? 'signin' : 'idle', signedOut ? SIGNED_OUT_REASON : IDLE_REASON);
        if (!signedOut) this.around.options.logger.info(`[${this.name}] not started: ${cached.tools.length} tools listed from its catalogue of ${new Date(cached.listedAt).toISOString()}`);
        return;
      }
    }
    await this.around.starts.run(this.name, () => this.startAttempt(generation), urgent);
  }

  private mayIdle(): boolean {
    return this.around.resting().idle.has(this.name) && !this.awake;
  }

  /** A server waiting for sign-in keeps the tools it last listed (from the cache) to be named, never called. */
  private async rememberCatalogue(generation: number): Promise<void> {
    const cache = this.around.cache;
    if (this.cached !== undefined || cache === undefined) return;
    const cached = await cache.read(this.config);
    if (cached === undefined || generation !== this.generation || this.state !== 'signin') return;
    this.cached = cached;
    this.around.listingChanged();
  }

  private async startAttempt(generation: number): Promise<void> {
    if (generation !== this.generation) return;
    const { options } = this.around;
    const signInReason = this.signInReason;
    this.signInReason = undefined;
    const refresher = new CoalescingRunner(() => this.refreshTools(generation));
    const connection = new ServerConnection(this.config, {
      ...options,
      onToolsChanged: () => refresher.request(),
      onFeaturesChanged: () => void this.listFeatures(generation),
      onClosed: () => this.exited(generation),
      // Declared only when the host can answer (a call's hooks go to the call that asked; the rest to this answerer).
      onElicitation: options.elicitation === undefined ? undefined : (params, signal) => this.calls.answer(this.name, params, signal),
    });
    this.connection = connection;
    try {
      const listed = await startAndList(connection, signInReason, options);
      if (generation !== this.generation) return;
      this.signedIn = await connection.signedIn();
      this.adoptListing(connection, listed);
      this.budget.ran();
      this.setState('running', undefined);
      options.logger.info(`[${this.name}] running with ${listed.tools.length} tools`);
      void this.listFeatures(generation);
    } catch (error) {
      await connection.close();
      if (generation !== this.generation) return;
      const failure = describeStartFailure(error, this.config, connection.stderrTail());
      this.failedToStart(failure);
      if (failure.signIn === true) await this.rememberCatalogue(generation);
    }
  }

  private failedToStart(failure: StartFailure): void {
    const { logger } = this.around.options;
    // Waiting for sign-in is no error: the Tools view asks for it.
    if (failure.signIn === true) logger.info(`[${this.name}] ${failure.reason}`);
    else logger.error(`[${this.name}] ${failure.reason}`);
    if (failure.retry) this.scheduleRestart(failure.reason);
    else this.setState(failure.signIn === true ? 'signin' : 'failed', failure.reason);
  }

  /**
   * The server died on its own: its tools leave at once, then a bounded restart is scheduled.
   * A death while starting is left to `startAttempt`, which sees its pending request fail.
   */
  private exited(generation: number): void {
    if (generation !== this.generation || this.around.shuttingDown() || this.state !== 'running') return;
    const connection = this.connection;
    const reason = exitReason(connection?.stderrTail() ?? []);
    this.around.options.logger.error(`[${this.name}] ${reason}`);
    this.tools = [];
    void closeQuietly(connection);
    this.scheduleRestart(reason);
  }

  private scheduleRestart(reason: string): void {
    const decision = this.budget.afterFailure();
    this.setState('failed', `${reason}\n${decision.note}`);
    if (decision.retry) this.budget.schedule(decision.delayMs, () => this.launch());
  }

  /** A call may have signed in (or lost the sign-in): the status follows, so Sign Out shows when it applies. */
  private async noteSignIn(connection: ServerConnection): Promise<void> {
    const signedIn = await connection.signedIn().catch(() => this.signedIn);
    if (signedIn === this.signedIn || this.connection !== connection) return;
    this.signedIn = signedIn;
    this.around.statusChanged(this.status());
  }

  /** Reads its prompts and resources once it runs; they are extras, so nothing waits for them. */
  private async listFeatures(generation: number): Promise<void> {
    const connection = this.connection;
    if (connection === undefined || generation !== this.generation) return;
    if (await this.extras.read(connection, () => generation === this.generation && this.state === 'running')) this.around.listingChanged();
  }

  /** After `list_changed` (one at a time, see CoalescingRunner); a failed listing keeps the last good list. */
  private async refreshTools(generation: number): Promise<void> {
    const connection = this.connection;
    if (generation !== this.generation || this.state !== 'running' || connection === undefined) return;
    try {
      const listed = await connection.listTools();
      if (generation !== this.generation || this.state !== 'running') return;
      this.adoptListing(connection, listed);
      this.setState('running', undefined);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.around.options.logger.warn(`[${this.name}] refreshing the tool list failed (${message}); keeping the last ${this.tools.length} tools`);
    }
  }

  /** Invalidates the current attempt and any pending restart; returns the new generation. */
  private supersede(): number {
    this.budget.cancel();
    this.tools = [];
    this.extras.clear();
    return ++this.generation;
  }

  /** Takes a list the server just gave as its live catalogue, and caches it for the next launch. */
  private adoptListing(connection: ServerConnection, listed: NormalizedTools): void {
    for (const problem of listed.problems) this.around.options.logger.warn(`[${this.name}] ${problem}`);
    this.tools = listed.tools;
    this.listedAt = Date.now();
    void this.around.cache?.write(this.config, { server: connection.serverInfo(), listedAt: this.listedAt, tools: listed.tools, ...(this.signedIn ? { signedIn: true } : {}) });
  }

  private setState(state: ServerState, reason: string | undefined): void {
    this.state = state;
    this.reason = reason;
    if (state !== 'running') this.tools = [];
    // Kept while idle, while waking from idle and while waiting for sign-in (named, not listed); a live list (or no list at all) replaces it.
    if (state !== 'idle' && state !== 'starting' && state !== 'signin') this.cached = undefined;
    this.around.statusChanged(this.status());
    this.around.listingChanged();
  }

  private facts(): ServerFacts {
    return {
      config: this.config,
      state: this.state,
      reason: this.reason,
      tools: this.tools,
      listedAt: this.listedAt,
      cached: this.cached,
      pid: this.connection?.pid,
      restarts: this.budget.restarts,
      signedIn: this.signedIn,
    };
  }
}
