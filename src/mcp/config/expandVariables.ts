export interface ExpansionContext {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The folder the entry belongs to; undefined when no folder is open. */
  readonly workspaceFolder: string | undefined;
  readonly userHome: string | undefined;
}

export type Expansion = { readonly ok: true; readonly value: string } | { readonly ok: false; readonly message: string };

const VARIABLE = /\$\{([^}]*)\}/g;

/**
 * Expands `${env:NAME}`, `${workspaceFolder}` and `${userHome}`. Anything unresolvable is an
 * error rather than an empty string, so a server never starts with a silently blank token.
 */
export function expandVariables(text: string, context: ExpansionContext): Expansion {
  let failure: string | undefined;
  const value = text.replace(VARIABLE, (whole, name: string) => {
    const resolved = resolveVariable(name, context);
    if (typeof resolved === 'string') return resolved;
    failure ??= resolved.message;
    return whole;
  });
  return failure === undefined ? { ok: true, value } : { ok: false, message: failure };
}

function resolveVariable(name: string, context: ExpansionContext): string | { message: string } {
  if (name.startsWith('env:')) {
    const key = name.slice('env:'.length);
    const value = context.env[key];
    return value ?? { message: `environment variable ${key} is not set; set it before starting VS Code or write the value directly` };
  }
  if (name === 'workspaceFolder') {
    return context.workspaceFolder ?? { message: '${workspaceFolder} is used but no workspace folder is open; open a folder or use an absolute path' };
  }
  if (name === 'userHome') {
    return context.userHome ?? { message: '${userHome} is used but the home directory is unknown; use an absolute path' };
  }
  if (name.startsWith('input:')) {
    return { message: `\${${name}} refers to an mcp.json input, which Quiver does not prompt for; write the value directly or use \${env:NAME}` };
  }
  return { message: `unknown variable \${${name}}; Quiver supports \${env:NAME}, \${workspaceFolder} and \${userHome}` };
}
