/**
 * The server asks for OAuth and there is no usable sign-in, and this start was not one the user
 * asked for (the editor opening, a settings edit): the browser is not opened unasked. The
 * server waits in the Tools view as *Sign in required* until the user signs in.
 */
export class SignInRequired extends Error {
  constructor(readonly server: string) {
    super(`sign in required: MCP server "${server}" uses OAuth. Sign in from the Tools view (Sign In on the server).`);
  }
}

/** A pre-registered client that authenticates with a secret has none, in settings or the secret store. */
export class MissingClientSecret extends Error {
  constructor(readonly server: string) {
    super(`MCP server "${server}" signs in with a client secret and has none: run "Quiver: Set MCP Client Secret…" (kept in VS Code's secret storage), or set "oauth.clientSecret" (e.g. "\${env:NAME}")`);
  }
}

/** The user chose not to sign in when a call needed it. */
export class SignInDeclined extends Error {
  constructor(readonly server: string) {
    super(`sign-in to MCP server "${server}" was declined; Sign In from the Tools view when you want its tools.`);
  }
}
