/**
 * Where a server's configuration was written. Everything except user settings comes from the
 * workspace, so it may only be started in a trusted workspace.
 */
export type ConfigSource =
  | { readonly kind: 'userSettings' }
  | { readonly kind: 'workspaceSettings' }
  | { readonly kind: 'workspaceFolderSettings'; readonly folder: string }
  | { readonly kind: 'mcpJson'; readonly file: string };

export function isWorkspaceSource(source: ConfigSource): boolean {
  return source.kind !== 'userSettings';
}

export function describeSource(source: ConfigSource): string {
  switch (source.kind) {
    case 'userSettings':
      return 'user settings (quiver.mcpServers)';
    case 'workspaceSettings':
      return 'workspace settings (quiver.mcpServers)';
    case 'workspaceFolderSettings':
      return `folder settings of ${source.folder} (quiver.mcpServers)`;
    case 'mcpJson':
      return source.file;
  }
}

export interface StdioServerConfig {
  readonly transport: 'stdio';
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string | undefined;
  readonly source: ConfigSource;
}

/**
 * `http` is Streamable HTTP falling back to the older SSE transport when the server does not
 * speak it; `sse` (only from mcp.json's `type: "sse"`) goes straight to SSE.
 */
export interface RemoteServerConfig {
  readonly transport: 'http' | 'sse';
  readonly name: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** What sign-in needs beyond discovery; absent, a server that asks for OAuth is signed in with dynamic registration. */
  readonly oauth?: OAuthSettings;
  readonly source: ConfigSource;
}

/** A remote server's `oauth` block with variables expanded. */
export interface OAuthSettings {
  readonly clientId?: string;
  readonly clientSecret?: string;
  readonly tokenEndpointAuthMethod?: 'client_secret_basic' | 'client_secret_post' | 'none';
  readonly scopes?: readonly string[];
  readonly clientMetadataUrl?: string;
  readonly grantType?: 'authorization_code' | 'client_credentials';
  /** PEM (PKCS #8) key for `private_key_jwt` client authentication. */
  readonly privateKey?: string;
  readonly signingAlgorithm?: string;
}

export type ServerConfig = StdioServerConfig | RemoteServerConfig;

/** A server entry that could not be used; the other servers are unaffected. */
export interface ServerConfigError {
  readonly server: string;
  readonly source: ConfigSource;
  readonly message: string;
}

export interface ParsedServerConfigs {
  readonly servers: readonly ServerConfig[];
  readonly errors: readonly ServerConfigError[];
}

/** Two configs are the same server iff every field that reaches the process or URL is equal. */
export function sameServerConfig(a: ServerConfig, b: ServerConfig): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

/**
 * Everything about a server's launch that can change what it lists: the process (command, args,
 * env, cwd) or the endpoint (URL, headers). Not its name in Quiver nor where it was configured.
 */
export function launchIdentity(config: ServerConfig): string {
  return config.transport === 'stdio'
    ? canonicalJson({ transport: config.transport, command: config.command, args: config.args, env: config.env, cwd: config.cwd ?? null })
    : canonicalJson({ transport: config.transport, url: config.url, headers: config.headers, clientId: config.oauth?.clientId ?? null });
}

/** Key order of env and headers is not meaningful, so it must not cause a restart. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)))
      : v,
  );
}
