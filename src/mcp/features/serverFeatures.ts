import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Prompt, Resource } from '@modelcontextprotocol/sdk/types.js';

/** A server's prompt, offered as the slash command `/server.name`. */
export interface ServerPrompt {
  readonly server: string;
  readonly name: string;
  readonly title: string | undefined;
  readonly description: string | undefined;
  readonly arguments: readonly { readonly name: string; readonly description: string | undefined; readonly required: boolean }[];
}

/** A server's resource, attachable to a message like a file. */
export interface ServerResource {
  readonly server: string;
  readonly uri: string;
  readonly name: string;
  readonly description: string | undefined;
  readonly mimeType: string | undefined;
}

/** Bound on pages read of prompts or resources: a server listing endlessly must not hold its start. */
const MAX_PAGES = 20;

/** Every prompt the server lists, when it has the capability; a server without it has none. */
export async function listPrompts(client: Client, server: string, timeoutMs: number): Promise<readonly ServerPrompt[]> {
  if (client.getServerCapabilities()?.prompts === undefined) return [];
  const prompts = await readPages((cursor) => client.listPrompts(cursor === undefined ? {} : { cursor }, { timeout: timeoutMs }).then((p) => ({ items: p.prompts, next: p.nextCursor })));
  return prompts.map((p: Prompt) => ({
    server,
    name: p.name,
    title: p.title,
    description: p.description,
    arguments: (p.arguments ?? []).map((a) => ({ name: a.name, description: a.description, required: a.required === true })),
  }));
}

export async function listResources(client: Client, server: string, timeoutMs: number): Promise<readonly ServerResource[]> {
  if (client.getServerCapabilities()?.resources === undefined) return [];
  const resources = await readPages((cursor) => client.listResources(cursor === undefined ? {} : { cursor }, { timeout: timeoutMs }).then((p) => ({ items: p.resources, next: p.nextCursor })));
  return resources.map((r: Resource) => ({ server, uri: r.uri, name: r.title ?? r.name, description: r.description, mimeType: r.mimeType }));
}

async function readPages<T>(page: (cursor: string | undefined) => Promise<{ readonly items: readonly T[]; readonly next: string | undefined }>): Promise<T[]> {
  const items: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let pages = 0; pages < MAX_PAGES; pages++) {
    const got = await page(cursor);
    items.push(...got.items);
    if (got.next === undefined || seen.has(got.next)) break;
    seen.add(got.next);
    cursor = got.next;
  }
  return items;
}
