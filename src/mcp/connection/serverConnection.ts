import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ElicitRequestSchema, type CallToolResult, type ElicitRequest, type ElicitResult, type GetPromptResult, type Progress, type ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { setPriority } from 'node:os';
import { z } from 'zod';
import { cleanMessage, errorText } from '../common/errorText';
import type { McpLogger } from '../common/logger';
import { normalizeTools, type NormalizedTools } from '../catalogue/normalizeTools';
import { OAuthSession } from '../oauth/oauthSession';
import type { SignInEnvironment, SignInReason } from '../oauth/signInBrowser';
import { SignInRequired } from '../oauth/signInErrors';
import { isAlive, killProcesses, processTree, waitUntilGone } from './processTree';
import type { RemoteServerConfig, ServerConfig, StdioServerConfig } from '../config/serverConfig';
import { listPrompts, listResources, type ServerPrompt, type ServerResource } from '../features/serverFeatures';
import { StderrTail } from './stderrTail';

export interface ServerInfo {
  readonly name: string;
  readonly version: string;
}

export interface ConnectionOptions {
  readonly clientInfo: { readonly name: string; readonly version: string };
  readonly logger: McpLogger;
  readonly listChangedDebounceMs: number;
  /** Per-request limit of the handshake and `tools/list`; the SDK's own 60 s would cut a slow first start short. */
  readonly startupTimeoutMs: number;
  readonly maxToolPages: number;
  readonly maxDescriptionChars: number;
  /** The server announced `notifications/tools/list_changed` (already debounced). */
  readonly onToolsChanged: () => void;
  /** Its prompts or resources changed (`list_changed`, debounced). */
  readonly onFeaturesChanged: () => void;
  /** The process exited or the remote connection dropped without `close()` being called. */
  readonly onClosed: () => void;
  /** Without it a server that asks for OAuth cannot be used (its 401 is reported as such). */
  readonly signIn: SignInEnvironment | undefined;
  /** Answers the server's `elicitation/create`; without it the capability is not declared. */
  readonly onElicitation: ((request: ElicitRequest['params'], signal: AbortSignal) => Promise<ElicitResult>) | undefined;
}

export interface CallHooks {
  readonly onProgress?: (progress: Progress) => void;
}

/** Pages are read leniently: a single malformed tool must not discard the whole page. */
const toolsPage = z.looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().optional() });

/**
 * The CPU priority (niceness) of a stdio server's process. Seventy Node servers starting beside
 * the editor on two cores take the CPU from the editor's own processes; below normal priority
 * they get what the editor leaves (a server mostly waits on I/O once up). An unprivileged process
 * cannot raise a priority again, so it stays lowered.
 */
export const SERVER_NICENESS = 10;

/** A session's DELETE at shutdown is a courtesy to the server: it must not hold shutdown up. */
const END_SESSION_MS = 2_000;

/** Grace given to a server to exit after its stdin closes, before it is signalled. */
const EXIT_GRACE_MS = 500;
const TERM_GRACE_MS = 1500;

/** One attempt at running one server: a client, its transport and, for stdio, its process tree. */
export class ServerConnection {
  private client: Client | undefined;
  private transport: Transport | undefined;
  private readonly stderr: StderrTail;
  private knownPid: number | undefined;
  private closing: Promise<void> | undefined;
  private session: OAuthSession | undefined;

  constructor(
    private readonly config: ServerConfig,
    private readonly options: ConnectionOptions,
  ) {
    this.stderr = new StderrTail(config.name, options.logger);
  }

  /** The server process id; kept after exit so callers can still check that it is gone. */
  get pid(): number | undefined {
    const live = this.transport instanceof StdioClientTransport ? this.transport.pid : null;
    if (live !== null) this.knownPid = live;
    return this.knownPid;
  }

  /** The name and version the server reported in its handshake. */
  serverInfo(): ServerInfo | undefined {
    const reported = this.client?.getServerVersion();
    return reported === undefined ? undefined : { name: reported.name, version: reported.version };
  }

  stderrTail(count = 10): readonly string[] {
    return this.stderr.last(count);
  }

  /**
   * Spawns or connects and completes the MCP handshake. The caller bounds it with a deadline.
   * `signIn` says why the user may be sent to a sign-in page; without it a server that needs
   * one fails with SignInRequired.
   */
  async start(signIn?: SignInReason): Promise<void> {
    const config = this.config;
    if (config.transport === 'stdio') return this.connect(this.stdioTransport(config));
    const signInEnv = this.options.signIn;
    // A server reached with a token of the user's own (an Authorization header) signs in with that, unless it has an oauth block.
    const ownToken = Object.keys(config.headers).some((h) => h.toLowerCase() === 'authorization') && config.oauth === undefined;
    this.session = signInEnv === undefined || ownToken ? undefined : OAuthSession.create(config.name, config.url, config.oauth ?? {}, signInEnv);
    await this.withSignIn(signIn, () => (config.transport === 'sse' ? this.connect(this.sseTransport(config)) : this.connectHttpWithFallback(config)));
  }

  /** True when the server is reached with OAuth tokens Quiver holds. */
  async signedIn(): Promise<boolean> {
    return (await this.session?.signedIn()) ?? false;
  }

  /**
   * Reads the whole catalogue, following `nextCursor` for at most `maxToolPages` pages. A server
   * may let the handshake through and ask for sign-in at its first list, so a start's `signIn`
   * reason holds here too.
   */
  async listTools(signIn?: SignInReason): Promise<NormalizedTools> {
    await this.refreshBeforeExpiry();
    return this.withSignIn(signIn, () => this.readCatalogue());
  }

  private async readCatalogue(): Promise<NormalizedTools> {
    const client = this.requireClient();
    const raw: unknown[] = [];
    const seenCursors = new Set<string>();
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await client.request({ method: 'tools/list', params: cursor === undefined ? {} : { cursor } }, toolsPage, { timeout: this.options.startupTimeoutMs });
      raw.push(...page.tools);
      pages++;
      cursor = page.nextCursor;
      if (cursor !== undefined && seenCursors.has(cursor)) break;
      if (cursor !== undefined) seenCursors.add(cursor);
    } while (cursor !== undefined && pages < this.options.maxToolPages);
    const normalized = normalizeTools(raw, this.options.maxDescriptionChars);
    if (cursor === undefined) return normalized;
    const why = pages >= this.options.maxToolPages ? `the limit of ${this.options.maxToolPages} pages was reached` : 'the server repeated a page cursor';
    return { tools: normalized.tools, problems: [...normalized.problems, `catalogue incomplete: stopped after ${pages} pages (${raw.length} tools) because ${why}`] };
  }

  /**
   * A call may send the user to sign in (the server's tokens were revoked, or it asks for more
   * scope): the call is retried once after the sign-in completes.
   */
  async callTool(tool: string, args: Readonly<Record<string, unknown>>, signal: AbortSignal, timeoutMs: number, hooks: CallHooks = {}): Promise<CallToolResult> {
    const client = this.requireClient();
    await this.refreshBeforeExpiry();
    const options = { signal, timeout: timeoutMs, ...(hooks.onProgress === undefined ? {} : { onprogress: hooks.onProgress, resetTimeoutOnProgress: true }) };
    const result = await this.withSignIn('toolCall', () => client.callTool({ name: tool, arguments: { ...args } }, undefined, options));
    return result as CallToolResult;
  }

  /** Its prompts and resources; a failure lists none of that kind and is logged, the server stays up. */
  async listFeatures(): Promise<{ readonly prompts: readonly ServerPrompt[]; readonly resources: readonly ServerResource[] }> {
    const client = this.requireClient();
    const timeout = this.options.startupTimeoutMs;
    const quietly = <T>(what: string, work: Promise<readonly T[]>): Promise<readonly T[]> =>
      work.catch((error: unknown) => {
        this.options.logger.warn(`[${this.config.name}] listing its ${what} failed (${errorText(error)}); none are offered`);
        return [];
      });
    const [prompts, resources] = await Promise.all([quietly('prompts', listPrompts(client, this.config.name, timeout)), quietly('resources', listResources(client, this.config.name, timeout))]);
    return { prompts, resources };
  }

  async getPrompt(name: string, args: Readonly<Record<string, string>>, signal: AbortSignal): Promise<GetPromptResult> {
    const client = this.requireClient();
    return this.withSignIn('toolCall', () => client.getPrompt({ name, arguments: { ...args } }, { signal, timeout: this.options.startupTimeoutMs }));
  }

  async readResource(uri: string, signal: AbortSignal): Promise<ReadResourceResult> {
    const client = this.requireClient();
    return this.withSignIn('toolCall', () => client.readResource({ uri }, { signal, timeout: this.options.startupTimeoutMs }));
  }

  /**
   * Runs `work`; when the SDK's auth code started an authorization (it throws UnauthorizedError),
   * waits for that sign-in to finish (the one every waiting request shares) and runs `work` again.
   */
  private async withSignIn<T>(reason: SignInReason | undefined, work: () => Promise<T>): Promise<T> {
    const session = this.session;
    if (session === undefined) return work();
    const run = (): Promise<T> => (reason === undefined ? work() : session.interactively(reason, work));
    const tokenBefore = (await session.tokens())?.access_token;
    let finishing: Promise<void> | undefined;
    try {
      return await run();
    } catch (error) {
      // Concurrent calls share one transport: when another call refreshed while this one's 401
      // was on its way, the SDK refuses to authorize again; the new token is there to retry with.
      const tokenChanged = (await session.tokens())?.access_token !== tokenBefore;
      if (error instanceof StreamableHTTPError && error.code === 401 && tokenChanged) return run();
      finishing = error instanceof UnauthorizedError ? session.finishSignIn() : undefined;
      // Another request's sign-in finished while this one's was starting: its tokens are stored.
      if (finishing === undefined && error instanceof UnauthorizedError && tokenChanged) return run();
      if (finishing === undefined) throw error;
    }
    await finishing;
    if (this.closing !== undefined) throw new Error(`MCP server "${this.config.name}" was stopped during sign-in`);
    this.options.logger.info(`[${this.config.name}] signed in`);
    return run();
  }

  /** Refreshes before the token runs out rather than after a 401; a failure is left to the 401 path. */
  private async refreshBeforeExpiry(): Promise<void> {
    const session = this.session;
    if (session === undefined || !(await session.needsRefresh())) return;
    await session.refresh().catch((error: unknown) => {
      this.options.logger.info(`[${this.config.name}] refreshing the sign-in before it expires failed (${errorText(error)}); the next request will tell`);
    });
  }

  /** Closes the session and makes sure the whole process tree is gone. Idempotent. */
  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    this.session?.close();
    const pid = this.pid;
    const tree = pid !== undefined && isAlive(pid) ? await processTree(pid) : [];
    await this.endSession();
    const closed = (this.client?.close() ?? Promise.resolve()).catch(() => undefined);
    if (tree.length > 0 && !(await waitUntilGone(tree, EXIT_GRACE_MS))) await killProcesses(tree, TERM_GRACE_MS);
    await closed;
  }

  /** DELETE of the Streamable HTTP session, so the server frees it now rather than at its own timeout. */
  private async endSession(): Promise<void> {
    const transport = this.transport;
    if (!(transport instanceof StreamableHTTPClientTransport) || transport.sessionId === undefined) return;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, END_SESSION_MS);
    });
    await Promise.race([transport.terminateSession().catch(() => undefined), late]);
    clearTimeout(timer);
  }

  private stdioTransport(config: StdioServerConfig): StdioClientTransport {
    const transport = new StdioClientTransport({
      command: config.command,
      args: [...config.args],
      env: { ...config.env },
      ...(config.cwd !== undefined ? { cwd: config.cwd } : {}),
      stderr: 'pipe',
    });
    const stream = transport.stderr;
    if (stream !== null) this.stderr.attach(stream);
    return transport;
  }

  /**
   * Streamable HTTP first; a server that only speaks the older SSE transport answers its first
   * POST with a 4xx, so only that is retried with SSE (the spec's backwards-compatibility rule).
   * A timeout, a 5xx or a sign-in problem is the server's answer, not a transport mismatch.
   */
  private async connectHttpWithFallback(config: RemoteServerConfig): Promise<void> {
    try {
      await this.connect(this.httpTransport(config));
    } catch (httpError) {
      if (this.closing !== undefined || !speaksOnlySse(httpError)) throw httpError;
      this.options.logger.info(`[${config.name}] Streamable HTTP failed (${errorText(httpError)}); trying SSE`);
      await this.connect(this.sseTransport(config)).catch((sseError: unknown) => {
        throw new Error(`Streamable HTTP failed (${errorText(httpError)}) and SSE failed (${errorText(sseError)})`);
      });
    }
  }

  private httpTransport(config: RemoteServerConfig): StreamableHTTPClientTransport {
    const session = this.session;
    return new StreamableHTTPClientTransport(new URL(config.url), {
      requestInit: { headers: { ...config.headers } },
      ...(session === undefined ? {} : { authProvider: session, fetch: session.fetch }),
    });
  }

  private sseTransport(config: RemoteServerConfig): SSEClientTransport {
    const session = this.session;
    return new SSEClientTransport(new URL(config.url), {
      requestInit: { headers: { ...config.headers } },
      ...(session === undefined ? {} : { authProvider: session, fetch: session.fetch }),
    });
  }

  private async connect(transport: Transport): Promise<void> {
    const onElicitation = this.options.onElicitation;
    const client = new Client(this.options.clientInfo, {
      // SEP-1034: with applyDefaults the SDK fills an accepted form's omitted fields from the schema.
      capabilities: onElicitation === undefined ? {} : { elicitation: { form: { applyDefaults: true }, url: {} } },
      listChanged: {
        tools: { autoRefresh: false, debounceMs: this.options.listChangedDebounceMs, onChanged: () => this.options.onToolsChanged() },
        prompts: { autoRefresh: false, debounceMs: this.options.listChangedDebounceMs, onChanged: () => this.options.onFeaturesChanged() },
        resources: { autoRefresh: false, debounceMs: this.options.listChangedDebounceMs, onChanged: () => this.options.onFeaturesChanged() },
      },
    });
    if (onElicitation !== undefined) client.setRequestHandler(ElicitRequestSchema, (request, extra) => onElicitation(request.params, extra.signal));
    client.onerror = (error) => {
      // The transport reports a sign-in it may not start (a background start) here too; the start's own outcome says it once.
      if (error instanceof SignInRequired || error instanceof UnauthorizedError) return;
      this.options.logger.warn(`[${this.config.name}] protocol error (ignored, the connection stays up): ${cleanMessage(error.message).slice(0, 300)}`);
    };
    this.client = client;
    this.transport = transport;
    const connected = client.connect(transport, { timeout: this.options.startupTimeoutMs });
    // The SDK spawns a stdio server synchronously inside connect(), so its pid is known before the
    // server has done any of its start-up work (a test checks the priority of a started server).
    this.lowerPriority();
    await connected;
    this.knownPid = this.pid;
    client.onclose = () => {
      if (this.closing === undefined && this.client === client) this.options.onClosed();
    };
  }

  private lowerPriority(): void {
    const pid = this.pid;
    if (pid === undefined) return;
    try {
      setPriority(pid, SERVER_NICENESS);
    } catch (err) {
      this.options.logger.info(`[${this.config.name}] its process keeps normal priority: ${errorText(err)}`);
    }
  }

  private requireClient(): Client {
    if (this.client === undefined) throw new Error(`MCP server "${this.config.name}" is not connected`);
    return this.client;
  }
}

/** Closes `connection` if there is one; a failure to close leaves nothing the caller could do. */
export async function closeQuietly(connection: ServerConnection | undefined): Promise<void> {
  await connection?.close().catch(() => undefined);
}

/** A 4xx to the first POST other than a sign-in or permission answer. */
function speaksOnlySse(error: unknown): boolean {
  if (!(error instanceof StreamableHTTPError) || error.code === undefined) return false;
  return error.code >= 400 && error.code < 500 && error.code !== 401 && error.code !== 403;
}
