import { EDITOR_SOURCE } from '../../core/editorTools';
import type { z } from 'zod';
import { describeIssues, mcpJsonEntry, mcpJsonFile, quiverRemoteEntry, quiverStdioEntry, type OAuthBlock } from './configSchemas';
import { expandVariables, type ExpansionContext } from './expandVariables';
import {
  describeSource,
  isWorkspaceSource,
  type ConfigSource,
  type OAuthSettings,
  type ParsedServerConfigs,
  type ServerConfig,
  type ServerConfigError,
} from './serverConfig';

type Built = { readonly config: ServerConfig } | { readonly error: string };

/** Parses the value of `quiver.mcpServers` from one settings scope. */
export function parseQuiverServers(raw: unknown, source: ConfigSource, context: ExpansionContext): ParsedServerConfigs {
  if (raw === undefined || raw === null) return { servers: [], errors: [] };
  if (!isPlainObject(raw)) {
    return fileError(source, 'quiver.mcpServers must be an object mapping server names to { "command": ... } or { "url": ... }');
  }
  return collect(Object.entries(raw), source, (name, entry) => buildQuiverEntry(name, entry, source, context));
}

/** Parses the content of a `.vscode/mcp.json` file (already read as JSON). `inputs` is ignored. */
export function parseMcpJson(raw: unknown, source: ConfigSource, context: ExpansionContext): ParsedServerConfigs {
  const file = mcpJsonFile.safeParse(raw);
  if (!file.success) return fileError(source, `not a valid mcp.json: ${describeIssues(file.error)}`);
  return collect(Object.entries(file.data.servers ?? {}), source, (name, entry) => buildMcpJsonEntry(name, entry, source, context));
}

/**
 * Merges parsed layers given from lowest to highest precedence: a later layer's server replaces
 * an earlier one of the same name. In an untrusted workspace a workspace entry does not shadow a
 * user entry, since the workspace one will not run and would only take the user's server away.
 */
export function mergeServerConfigs(layers: readonly ParsedServerConfigs[], workspaceTrusted: boolean): ParsedServerConfigs {
  const byName = new Map<string, ServerConfig>();
  for (const config of layers.flatMap((l) => l.servers)) {
    const existing = byName.get(config.name);
    const keepUser = !workspaceTrusted && existing !== undefined && !isWorkspaceSource(existing.source) && isWorkspaceSource(config.source);
    if (!keepUser) byName.set(config.name, config);
  }
  return { servers: [...byName.values()], errors: layers.flatMap((l) => l.errors) };
}

function buildQuiverEntry(name: string, entry: unknown, source: ConfigSource, context: ExpansionContext): Built {
  if (!isPlainObject(entry)) return { error: 'must be an object with "command" (a local server) or "url" (a remote server)' };
  const hasCommand = 'command' in entry;
  const hasUrl = 'url' in entry;
  if (hasCommand && hasUrl) return { error: 'has both "command" and "url"; keep "command" for a local server or "url" for a remote one' };
  if (hasCommand) return fromSchema(quiverStdioEntry, entry, (e) => stdio(name, e, source, context));
  if (hasUrl) return fromSchema(quiverRemoteEntry, entry, (e) => remote(name, 'http', e, source, context));
  return { error: 'needs "command" (a local server started over stdio) or "url" (a remote server over HTTP)' };
}

function buildMcpJsonEntry(name: string, entry: unknown, source: ConfigSource, context: ExpansionContext): Built {
  return fromSchema(mcpJsonEntry, entry, (e) => {
    const type = e.type ?? (e.url !== undefined ? 'http' : 'stdio');
    if (type === 'stdio') {
      if (e.command === undefined) return { error: `"command" is required for a stdio server; add "command": "npx" (or the program to run)` };
      return stdio(name, { command: e.command, args: e.args, env: e.env, cwd: e.cwd }, source, context);
    }
    if (e.url === undefined) return { error: `"url" is required for type "${type}"; add "url": "https://..."` };
    return remote(name, type, { url: e.url, headers: e.headers, oauth: e.oauth }, source, context);
  });
}

interface StdioFields {
  readonly command: string;
  readonly args?: readonly string[] | undefined;
  readonly env?: Readonly<Record<string, string>> | undefined;
  readonly cwd?: string | undefined;
}

function stdio(name: string, fields: StdioFields, source: ConfigSource, context: ExpansionContext): Built {
  const x = new Expander(context);
  const command = x.expand('command', fields.command);
  const args = (fields.args ?? []).map((a, i) => x.expand(`args.${i}`, a));
  const env = x.expandMap('env', fields.env);
  const cwd = fields.cwd === undefined ? context.workspaceFolder : x.expand('cwd', fields.cwd);
  if (x.error !== undefined) return { error: x.error };
  return { config: { transport: 'stdio', name, command, args, env, cwd, source } };
}

interface RemoteFields {
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>> | undefined;
  readonly oauth?: OAuthBlock | undefined;
}

function remote(name: string, transport: 'http' | 'sse', fields: RemoteFields, source: ConfigSource, context: ExpansionContext): Built {
  const x = new Expander(context);
  const url = x.expand('url', fields.url);
  const headers = x.expandMap('headers', fields.headers);
  const oauth = fields.oauth === undefined ? undefined : expandOAuth(x, fields.oauth);
  if (x.error !== undefined) return { error: x.error };
  if (!isHttpUrl(url)) return { error: `"url" must be an http:// or https:// URL, got "${url}"` };
  if (oauth?.clientSecret !== undefined && oauth.clientId === undefined) {
    return { error: '"oauth.clientSecret" needs "oauth.clientId": add the client ID the secret belongs to' };
  }
  // A secret may be in the secret store instead (Quiver: Set MCP Client Secret…): its absence is told at sign-in.
  if (oauth?.grantType === 'client_credentials' && oauth.clientId === undefined) {
    return { error: '"oauth.grantType" "client_credentials" signs in as the client itself: add "oauth.clientId", and its secret ("oauth.clientSecret" or Quiver: Set MCP Client Secret…) or "oauth.privateKey"' };
  }
  if (oauth?.privateKey !== undefined && oauth.clientSecret !== undefined) {
    return { error: '"oauth.privateKey" and "oauth.clientSecret" are two ways to authenticate the client: keep one' };
  }
  if (oauth?.tokenEndpointAuthMethod !== undefined && oauth.tokenEndpointAuthMethod !== 'none' && oauth.clientId === undefined) {
    return { error: `"oauth.tokenEndpointAuthMethod" "${oauth.tokenEndpointAuthMethod}" is for a client you registered: add "oauth.clientId" (and its secret), or use "none"` };
  }
  return { config: { transport, name, url, headers, ...(oauth === undefined ? {} : { oauth }), source } };
}

/** Only the fields that can hold a secret take variables: the client ID, secret and private key. */
function expandOAuth(x: Expander, block: OAuthBlock): OAuthSettings {
  return {
    ...block,
    ...(block.clientId === undefined ? {} : { clientId: x.expand('oauth.clientId', block.clientId) }),
    ...(block.clientSecret === undefined ? {} : { clientSecret: x.expand('oauth.clientSecret', block.clientSecret) }),
    ...(block.privateKey === undefined ? {} : { privateKey: x.expand('oauth.privateKey', block.privateKey) }),
  };
}

/** Expands many fields, remembering the first failure with the key it happened at. */
class Expander {
  error: string | undefined;
  constructor(private readonly context: ExpansionContext) {}

  expand(key: string, text: string): string {
    const result = expandVariables(text, this.context);
    if (result.ok) return result.value;
    this.error ??= `"${key}": ${result.message}`;
    return text;
  }

  expandMap(key: string, map: Readonly<Record<string, string>> | undefined): Record<string, string> {
    return Object.fromEntries(Object.entries(map ?? {}).map(([k, v]) => [k, this.expand(`${key}.${k}`, v)]));
  }
}

function fromSchema<S extends z.ZodType>(schema: S, entry: unknown, build: (value: z.output<S>) => Built): Built {
  const parsed = schema.safeParse(entry);
  return parsed.success ? build(parsed.data) : { error: describeIssues(parsed.error) };
}

function collect(
  entries: readonly (readonly [string, unknown])[],
  source: ConfigSource,
  build: (name: string, entry: unknown) => Built,
): ParsedServerConfigs {
  const servers: ServerConfig[] = [];
  const errors: ServerConfigError[] = [];
  for (const [name, entry] of entries) {
    const built = name.trim() === '' ? { error: 'has an empty name; give the server a name' }
      : name === EDITOR_SOURCE ? { error: `is named "${EDITOR_SOURCE}", the name of the editor's own tools (${EDITOR_SOURCE}__read_file, …); give the server another name` }
        : build(name, entry);
    if ('config' in built) servers.push(built.config);
    else errors.push({ server: name, source, message: `MCP server "${name}" in ${describeSource(source)}: ${built.error}` });
  }
  return { servers, errors };
}

function fileError(source: ConfigSource, message: string): ParsedServerConfigs {
  return { servers: [], errors: [{ server: '', source, message: `${describeSource(source)}: ${message}` }] };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isHttpUrl(text: string): boolean {
  try {
    const { protocol } = new URL(text);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}
