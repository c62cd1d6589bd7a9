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

/** `quiver.mcpServers` entries: unknown keys are typos worth reporting. */
export const quiverStdioEntry = z.strictObject({ command, args: stringArray.optional(), env: stringMap.optional(), cwd: cwd.optional() });
export const quiverRemoteEntry = z.strictObject({ url, headers: stringMap.optional() });

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
});

export const mcpJsonFile = z.looseObject({
  servers: z.record(z.string(), z.unknown(), { error: 'must be an object mapping server names to server entries' }).optional(),
});

/** Renders zod issues as `"key" must ...` so the message names the offending key. */
export function describeIssues(error: z.ZodError): string {
  return error.issues.map(describeIssue).join('; ');
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') {
    return `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}; remove ${issue.keys.length > 1 ? 'them' : 'it'} (check the spelling)`;
  }
  const path = issue.path.map(String).join('.');
  return path === '' ? issue.message : `"${path}" ${issue.message}`;
}
