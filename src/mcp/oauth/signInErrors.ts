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

/** The user chose not to sign in when a call needed it. */
export class SignInDeclined extends Error {
  constructor(readonly server: string) {
    super(`sign-in to MCP server "${server}" was declined; Sign In from the Tools view when you want its tools.`);
  }
}
