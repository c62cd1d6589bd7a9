import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { setPriority } from 'node:os';
import { z } from 'zod';
import { cleanMessage, errorText } from './describeCallError';
import type { McpLogger } from './logger';
import { normalizeTools, type NormalizedTools } from './normalizeTools';
import { isAlive, killProcesses, processTree, waitUntilGone } from './processTree';
import type { RemoteServerConfig, ServerConfig, StdioServerConfig } from './serverConfig';
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
  /** The process exited or the remote connection dropped without `close()` being called. */
  readonly onClosed: () => void;
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

  /** Spawns or connects and completes the MCP handshake. The caller bounds it with a deadline. */
  async start(): Promise<void> {
    if (this.config.transport === 'stdio') await this.connect(this.stdioTransport(this.config));
    else if (this.config.transport === 'sse') await this.connect(sseTransport(this.config));
    else await this.connectHttpWithFallback(this.config);
  }

  /** Reads the whole catalogue, following `nextCursor` for at most `maxToolPages` pages. */
  async listTools(): Promise<NormalizedTools> {
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

  async callTool(tool: string, args: Readonly<Record<string, unknown>>, signal: AbortSignal, timeoutMs: number): Promise<CallToolResult> {
    const result = await this.requireClient().callTool({ name: tool, arguments: { ...args } }, undefined, { signal, timeout: timeoutMs });
    return result as CallToolResult;
  }

  /** Closes the session and makes sure the whole process tree is gone. Idempotent. */
  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    const pid = this.pid;
    const tree = pid !== undefined && isAlive(pid) ? await processTree(pid) : [];
    const closed = (this.client?.close() ?? Promise.resolve()).catch(() => undefined);
    if (tree.length > 0 && !(await waitUntilGone(tree, EXIT_GRACE_MS))) await killProcesses(tree, TERM_GRACE_MS);
    await closed;
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

  /** Streamable HTTP first; servers that only speak the older SSE transport reject it, so retry with SSE. */
  private async connectHttpWithFallback(config: RemoteServerConfig): Promise<void> {
    try {
      await this.connect(new StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers: { ...config.headers } } }));
    } catch (httpError) {
      if (this.closing !== undefined) throw httpError;
      this.options.logger.info(`[${config.name}] Streamable HTTP failed (${errorText(httpError)}); trying SSE`);
      await this.connect(sseTransport(config)).catch((sseError: unknown) => {
        throw new Error(`Streamable HTTP failed (${errorText(httpError)}) and SSE failed (${errorText(sseError)})`);
      });
    }
  }

  private async connect(transport: Transport): Promise<void> {
    const client = new Client(this.options.clientInfo, {
      capabilities: {},
      listChanged: { tools: { autoRefresh: false, debounceMs: this.options.listChangedDebounceMs, onChanged: () => this.options.onToolsChanged() } },
    });
    client.onerror = (error) => this.options.logger.warn(`[${this.config.name}] protocol error (ignored, the connection stays up): ${cleanMessage(error.message).slice(0, 300)}`);
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

function sseTransport(config: RemoteServerConfig): SSEClientTransport {
  return new SSEClientTransport(new URL(config.url), { requestInit: { headers: { ...config.headers } } });
}
