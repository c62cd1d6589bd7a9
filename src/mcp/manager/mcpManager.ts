import type { GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import type { ServerKeys } from '../../core/availability';
import type { ToolCallHooks } from '../../core/elicitation';
import { NO_REVIEW, type CallReview, type SignInWaiting, type ToolCallResult, type ToolSource, type Unsubscribe } from '../../core/tools';
import type { ToolDefinition } from '../../core/tools';
import { buildCatalogue, type Catalogue } from '../catalogue/buildCatalogue';
import { CatalogueCache } from '../catalogue/catalogueCache';
import { ownsToolKey } from '../catalogue/qualifiedNames';
import { Emitter } from '../../core/tools';
import { NONE_RESTING, type RestingServers } from '../config/restingServers';
import type { ServerConfig } from '../config/serverConfig';
import type { ServerPrompt, ServerResource } from '../features/serverFeatures';
import { notRunningText } from '../lifecycle/failureReasons';
import { ManagedServer } from '../lifecycle/managedServer';
import type { ServerState, ServerStatus } from '../lifecycle/serverStatus';
import type { ServerSurroundings } from '../lifecycle/serverSurroundings';
import { StartQueue } from '../lifecycle/startQueue';
import { readCredentials } from '../oauth/serverCredentials';
import { toolError } from '../results/toolError';
import { resolveOptions, type McpManagerOptions, type ResolvedOptions } from './managerOptions';

/**
 * Runs the configured MCP servers and presents their tools as one catalogue. Each server is a
 * ManagedServer that owns its lifecycle and status; the manager adopts configurations, routes
 * calls and requests to the server they name, and merges what the servers list. Starting never
 * blocks the caller: servers start in parallel and report through `onDidChangeStatus`. A server
 * settings let rest with a cached catalogue (RestingServers.idle) is listed without a process
 * and starts at the first call of one of its tools.
 */
export class McpManager implements ToolSource {
  private readonly options: ResolvedOptions;
  private readonly servers = new Map<string, ManagedServer>();
  private readonly statusEvents = new Emitter<ServerStatus>();
  private readonly changeEvents = new Emitter<void>();
  private readonly surroundings: ServerSurroundings;
  private trusted: boolean;
  private catalogue: Catalogue | undefined;
  private disposed = false;
  private resting: RestingServers = NONE_RESTING;

  constructor(options: McpManagerOptions) {
    this.options = resolveOptions(options);
    this.trusted = options.workspaceTrusted;
    const dir = options.catalogueCacheDir;
    this.surroundings = {
      options: this.options,
      starts: new StartQueue(this.options.maxConcurrentStarts),
      cache: dir === undefined ? undefined : new CatalogueCache(dir, this.options.logger),
      resting: () => this.resting,
      trusted: () => this.trusted,
      shuttingDown: () => this.disposed,
      statusChanged: (status) => this.statusEvents.fire(status),
      listingChanged: () => this.changed(),
    };
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
    for (const [name, server] of this.servers) {
      if (!next.has(name)) this.remove(server);
    }
    const before = this.resting;
    this.resting = resting;
    const previous = new Map(this.servers);
    // Kept in the order of `configs`: statuses and the catalogue follow it.
    this.servers.clear();
    for (const config of next.values()) {
      const server = previous.get(config.name);
      if (server === undefined) {
        const created = new ManagedServer(config, this.surroundings);
        this.servers.set(config.name, created);
        created.launch();
        continue;
      }
      this.servers.set(config.name, server);
      server.reconfigure(config, before);
    }
    this.changed();
  }

  /** The same servers with new resting sets (see applyConfig). */
  setResting(resting: RestingServers): void {
    if (this.disposed) return;
    const before = this.resting;
    this.resting = resting;
    for (const server of this.servers.values()) server.followResting(before);
  }

  serverOfKey(key: string): string | undefined {
    const owners = [...this.servers.keys()].filter((name) => ownsToolKey(name)(key));
    return owners.find((name) => key.startsWith(`${name}__`)) ?? owners[0];
  }

  offServers(): readonly ServerKeys[] {
    return this.serversIn('off').map((s) => ({ name: s.name, ownsToolKey: ownsToolKey(s.name) }));
  }

  /** Starts or stops workspace-configured servers as trust changes. */
  setWorkspaceTrusted(trusted: boolean): void {
    if (this.disposed || trusted === this.trusted) return;
    this.trusted = trusted;
    for (const server of this.servers.values()) {
      if (server.configuredInWorkspace) server.launch();
    }
  }

  /**
   * Restarts one server by hand (resetting its automatic-restart budget); settles when it has an
   * outcome. It opens no sign-in page (Restart All would open one per server): one that needs
   * sign-in waits as *Sign in required*.
   */
  async restart(name: string): Promise<void> {
    if (!this.disposed) await this.servers.get(name)?.startOnDemand(undefined);
  }

  /** Starts a server the user asked to sign in to: its sign-in page opens. Settles when it runs or failed. */
  async signIn(name: string): Promise<void> {
    if (!this.disposed) await this.servers.get(name)?.startOnDemand('signIn');
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
    for (const server of this.servers.values()) server.retryWithStoredSignIn(serverUrl);
  }

  /**
   * Forgets the server's tokens and registration (in the secret store, which every window
   * shares), then starts it again without them: it waits as *Sign in required*.
   */
  async signOut(name: string): Promise<void> {
    if (!this.disposed) await this.servers.get(name)?.signOut();
  }

  /** Restarts every server that is meant to run: off and idle ones stay as they are. */
  async restartAll(): Promise<void> {
    const names = [...this.servers.values()].filter((s) => s.meantToRun()).map((s) => s.name);
    await Promise.all(names.map((name) => this.restart(name)));
  }

  /** Resolves once no server is starting (each has run, failed, been stopped or gone idle). */
  async whenIdle(): Promise<void> {
    while (this.serversIn('starting').length > 0) {
      await Promise.all([...this.servers.values()].map((s) => s.settled()));
    }
  }

  statuses(): ServerStatus[] {
    return [...this.servers.values()].map((s) => s.status());
  }

  status(name: string): ServerStatus | undefined {
    return this.servers.get(name)?.status();
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
    return new Set([...this.servers.values()].filter((s) => s.listing() !== undefined).map((s) => s.name));
  }

  /** Servers waiting for sign-in, each with the tools its cached catalogue names under their qualified names (never callable). */
  signInServers(): readonly SignInWaiting[] {
    const waiting = this.serversIn('signin');
    const named = buildCatalogue(waiting.map((s) => ({ name: s.name, tools: s.cachedTools() })));
    return waiting.map((s) => ({ server: s.name, tools: named.tools.filter((t) => t.server === s.name) }));
  }

  startingServers(): ReadonlySet<string> {
    return new Set(this.serversIn('starting').map((s) => s.name));
  }

  idleServers(): ReadonlySet<string> {
    return new Set(this.serversIn('idle').map((s) => s.name));
  }

  async ensureRunning(server: string): Promise<void> {
    const managed = this.servers.get(server);
    if (managed === undefined) throw new Error(`No MCP server named "${server}" is configured.`);
    await managed.ensureRunning();
  }

  /** An MCP tool's effects are its server's to know: its run policy alone decides whether it asks. */
  review(): Promise<CallReview> {
    return Promise.resolve(NO_REVIEW);
  }

  async call(name: string, args: Readonly<Record<string, unknown>>, signal: AbortSignal, hooks: ToolCallHooks = {}): Promise<ToolCallResult> {
    signal.throwIfAborted();
    const ref = this.currentCatalogue().byName.get(name);
    if (ref === undefined) return toolError(`No MCP tool is named "${name}". It may have been removed, or its server is not running.`);
    const server = this.servers.get(ref.server);
    if (server === undefined) return toolError(notRunningText(ref.server, undefined));
    return server.call(ref.tool, args, signal, hooks);
  }

  /** The prompts of every running server, offered as slash commands `/server.prompt`. */
  prompts(): readonly ServerPrompt[] {
    return [...this.servers.values()].flatMap((s) => s.runningExtras()?.prompts ?? []);
  }

  /** The resources of every running server, attachable to a message. */
  resources(): readonly ServerResource[] {
    return [...this.servers.values()].flatMap((s) => s.runningExtras()?.resources ?? []);
  }

  /** `prompts/get` of a running server; rejects with a message for the user when it cannot be had. */
  async getPrompt(server: string, name: string, args: Readonly<Record<string, string>>, signal: AbortSignal): Promise<GetPromptResult> {
    return this.serverNamed(server).runningConnection().getPrompt(name, args, signal);
  }

  async readResource(server: string, uri: string, signal: AbortSignal): Promise<ReadResourceResult> {
    return this.serverNamed(server).runningConnection().readResource(uri, signal);
  }

  /** Stops every server and waits until their process trees are gone. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    const servers = [...this.servers.values()];
    await Promise.all(servers.map((s) => s.stop('stopped', 'stopped: Quiver is shutting down')));
    await Promise.all(servers.map((s) => s.settled()));
    await this.surroundings.cache?.flush();
    this.statusEvents.clear();
    this.changeEvents.clear();
  }

  private serverNamed(server: string): ManagedServer {
    const managed = this.servers.get(server);
    if (managed === undefined) throw new Error(`MCP server "${server}" is not running`);
    return managed;
  }

  private remove(server: ManagedServer): void {
    this.servers.delete(server.name);
    void server.stop('stopped', 'stopped: removed from the configuration');
  }

  private serversIn(state: ServerState): ManagedServer[] {
    return [...this.servers.values()].filter((s) => s.currentState === state);
  }

  private changed(): void {
    this.catalogue = undefined;
    this.changeEvents.fire();
  }

  private currentCatalogue(): Catalogue {
    this.catalogue ??= buildCatalogue(
      [...this.servers.values()].flatMap((s) => {
        const listing = s.listing();
        return listing === undefined ? [] : [{ name: s.name, tools: listing.tools }];
      }),
    );
    return this.catalogue;
  }
}
