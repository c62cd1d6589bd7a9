import { z } from 'zod';

const stringArray = z.array(z.string(), { error: 'must be an array of strings, e.g. ["--port", "3000"]' });
const stringMap = z.record(z.string(), z.string(), {
  error: 'must be an object whose values are strings, e.g. { "API_KEY": "${env:API_KEY}" }',
});
const command = z.string({ error: 'must be a string naming the program to run, e.g. "npx"' }).min(1, {
  error: 'must not be empty; name the program to run, e.g. "npx"',
});
const url = z.string({ error: 'must be a string such as "https://example.com/mcp"' }).min(1, {
  error: 'must not be empty; give the server URL, e.g. "https://example.com/mcp"',
});
const cwd = z.string({ error: 'must be a string path to a folder' });

/**
 * `authorization_code`: a person signs in in the browser (the default). `client_credentials`:
 * the client signs in as itself with its secret or private key, no person involved (the MCP
 * client-credentials extension, for service accounts).
 */
export const GRANT_TYPES = ['authorization_code', 'client_credentials'] as const;

/** The token endpoint authentication methods the MCP authorization spec names for a client. */
export const TOKEN_AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'none'] as const;

/**
 * A remote server's `oauth` block: what sign-in cannot discover. A server whose authorization
 * server offers no dynamic registration needs `clientId` (and usually `clientSecret`); a client
 * ID metadata document is an HTTPS URL with a path (SEP-991), which the server fetches itself.
 */
export const oauthBlock = z.strictObject(
  {
    clientId: z.string({ error: 'must be the client ID the server\'s developer settings gave you, as a string' }).min(1, { error: 'must not be empty' }).optional(),
    clientSecret: z.string({ error: 'must be a string; keep it out of the file with "${env:NAME}"' }).optional(),
    tokenEndpointAuthMethod: z.enum(TOKEN_AUTH_METHODS, { error: `must be one of ${TOKEN_AUTH_METHODS.map((m) => `"${m}"`).join(', ')}` }).optional(),
    scopes: stringArray.optional(),
    grantType: z.enum(GRANT_TYPES, { error: `must be one of ${GRANT_TYPES.map((g) => `"${g}"`).join(', ')}` }).optional(),
    privateKey: z.string({ error: 'must be a PEM private key (PKCS #8) as a string; keep it out of the file with "${env:NAME}"' }).optional(),
    signingAlgorithm: z.string({ error: 'must be a JWS algorithm name such as "RS256" or "ES256"' }).regex(/^(RS|PS|ES)(256|384|512)$|^EdDSA$/, { error: 'must be a JWS algorithm such as "RS256", "PS256", "ES256" or "EdDSA"' }).optional(),
    clientMetadataUrl: z
      .string({ error: 'must be a string such as "https://example.com/quiver-client.json"' })
      .refine(isHttpsDocumentUrl, { error: 'must be an https:// URL with a path, such as "https://example.com/quiver-client.json" (the authorization server fetches it)' })
      .optional(),
  },
  { error: 'must be an object such as { "clientId": "...", "clientSecret": "${env:CLIENT_SECRET}" }' },
);

export type OAuthBlock = z.output<typeof oauthBlock>;

function isHttpsDocumentUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' && url.pathname !== '/';
  } catch {
    return false;
  }
}

/** `quiver.mcpServers` entries: unknown keys are typos worth reporting. */
export const quiverStdioEntry = z.strictObject({ command, args: stringArray.optional(), env: stringMap.optional(), cwd: cwd.optional() });
export const quiverRemoteEntry = z.strictObject({ url, headers: stringMap.optional(), oauth: oauthBlock.optional() });

/**
 * `.vscode/mcp.json` entries follow VS Code's format, which grows fields Quiver does not use
 * (`envFile`, `dev`, ...); those are ignored rather than rejected.
 */
export const mcpJsonEntry = z.looseObject({
  type: z.enum(['stdio', 'http', 'sse'], { error: 'must be "stdio", "http" or "sse"' }).optional(),
  command: command.optional(),
  args: stringArray.optional(),
  env: stringMap.optional(),
  cwd: cwd.optional(),
  url: url.optional(),
  headers: stringMap.optional(),
  oauth: oauthBlock.optional(),
});

export const mcpJsonFile = z.looseObject({
  servers: z.record(z.string(), z.unknown(), { error: 'must be an object mapping server names to server entries' }).optional(),
});

/** Renders zod issues as `"key" must ...` so the message names the offending key. */
export function describeIssues(error: z.ZodError): string {
  return error.issues.map(describeIssue).join('; ');
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const path = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    const unknown = `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}; remove ${issue.keys.length > 1 ? 'them' : 'it'} (check the spelling)`;
    return path === '' ? unknown : `"${path}" has ${unknown}`;
  }
  return path === '' ? issue.message : `"${path}" ${issue.message}`;
}
