import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { errorText } from '../common/errorText';
import type { McpLogger } from '../common/logger';
import { normalizeTools, type ServerTool } from './normalizeTools';
import { launchIdentity, type ServerConfig } from '../config/serverConfig';
import type { ServerInfo } from '../connection/serverConnection';
import type { SecretStore } from '../oauth/secretStore';
import { readCredentials } from '../oauth/serverCredentials';

/** A server's tool list as it last listed it, kept so the server need not start to be searched. */
export interface CachedCatalogue {
  /** What the server reported in the handshake of the session that listed these tools. */
  readonly server: ServerInfo | undefined;
  /** When the server listed them (ms since the epoch). */
  readonly listedAt: number;
  readonly tools: readonly ServerTool[];
  /**
   * Listed over an OAuth sign-in (absent otherwise, and in files written before 2026-12-02): a
   * reload that finds no sign-in stored for its URL (after Sign Out) knows it waits for one.
   */
  readonly signedIn?: true;
}

/** `cached` was listed over a sign-in that is no longer stored (Sign Out, another keychain): its server waits for one again. */
export async function signInLapsed(cached: CachedCatalogue, config: ServerConfig, store: SecretStore | undefined): Promise<boolean> {
  if (cached.signedIn !== true || store === undefined || config.transport === 'stdio') return false;
  return (await readCredentials(store, config.url)).tokens === undefined;
}

const FORMAT = 1;

const cacheFile = z.object({
  format: z.literal(FORMAT),
  launch: z.string(),
  server: z.object({ name: z.string(), version: z.string() }).optional(),
  listedAt: z.iso.datetime(),
  signedIn: z.literal(true).optional(),
  tools: z.array(z.unknown()),
});

/**
 * One JSON file per launch configuration in `dir`, named by a hash of everything that can change
 * what the server lists (launchIdentity): a changed command, argument, variable or header never
 * finds the old list, and no secret from env or headers is written. Every listing rewrites its
 * file, so the name and version the server reports and the tools it lists are always the latest.
 * A file that cannot be read or parsed is logged and treated as absent: the server then starts.
 */
export class CatalogueCache {
  /** Writes per file, chained so an older list never lands after a newer one. */
  private readonly writes = new Map<string, Promise<void>>();

  constructor(
    private readonly dir: string,
    private readonly logger: McpLogger,
  ) {}

  async read(config: ServerConfig): Promise<CachedCatalogue | undefined> {
    const launch = launchHash(config);
    const file = this.fileOf(launch);
    await this.writes.get(file);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'ENOENT') this.ignored(config, file, errorText(error));
      return undefined;
    }
    const parsed = parseCacheFile(text, launch);
    if (typeof parsed === 'string') {
      this.ignored(config, file, parsed);
      return undefined;
    }
    return parsed;
  }

  /** Never rejects: a cache that cannot be written costs a start next time, nothing more. */
  write(config: ServerConfig, catalogue: CachedCatalogue): Promise<void> {
    const launch = launchHash(config);
    const file = this.fileOf(launch);
    const written = (this.writes.get(file) ?? Promise.resolve())
      .then(() => this.writeFile(file, serialize(launch, catalogue)))
      .catch((error: unknown) => this.logger.warn(`[${config.name}] could not write its tool catalogue to ${file}: ${errorText(error)}`));
    this.writes.set(file, written);
    void written.finally(() => {
      if (this.writes.get(file) === written) this.writes.delete(file);
    });
    return written;
  }

  /** Resolves once every write begun so far has landed (or failed and been logged). */
  async flush(): Promise<void> {
    await Promise.all(this.writes.values());
  }

  private async writeFile(file: string, text: string): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    // Written aside and renamed over: a reader never sees half a file.
    const partial = `${file}.${process.pid}.partial`;
    await writeFile(partial, text, 'utf8');
    await rename(partial, file);
  }

  private fileOf(launch: string): string {
    return join(this.dir, `${launch}.json`);
  }

  private ignored(config: ServerConfig, file: string, why: string): void {
    this.logger.warn(`[${config.name}] ignoring its cached tool catalogue ${file} (${why}); the server will start to list its tools`);
  }
}

function launchHash(config: ServerConfig): string {
  return createHash('sha256').update(launchIdentity(config)).digest('hex');
}

function serialize(launch: string, catalogue: CachedCatalogue): string {
  const file: z.input<typeof cacheFile> = {
    format: FORMAT,
    launch,
    ...(catalogue.server !== undefined ? { server: catalogue.server } : {}),
    listedAt: new Date(catalogue.listedAt).toISOString(),
    ...(catalogue.signedIn === true ? { signedIn: true } : {}),
    tools: [...catalogue.tools],
  };
  return JSON.stringify(file);
}

/** The catalogue in `text`, or why it cannot be used. */
function parseCacheFile(text: string, launch: string): CachedCatalogue | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `not JSON: ${errorText(error)}`;
  }
  const parsed = cacheFile.safeParse(value);
  if (!parsed.success) return `not a catalogue file: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`;
  if (parsed.data.launch !== launch) return 'written for another launch configuration';
  // Descriptions were bounded when listed; bounding again would cut into the truncation marker.
  const tools = normalizeTools(parsed.data.tools, Number.POSITIVE_INFINITY);
  if (tools.problems.length > 0) return `damaged tool list: ${tools.problems.join('; ')}`;
  return { server: parsed.data.server, listedAt: Date.parse(parsed.data.listedAt), tools: tools.tools, ...(parsed.data.signedIn === true ? { signedIn: true } : {}) };
}
