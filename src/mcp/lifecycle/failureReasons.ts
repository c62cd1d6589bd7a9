import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { errorText } from '../common/errorText';
import { describeSignInFailure } from '../oauth/signInFailures';
import { describeSource, type ServerConfig } from '../config/serverConfig';
import { StartupTimeout } from './startupDeadline';

export interface StartFailure {
  readonly reason: string;
  /** Only a process that died (or a dropped connection) is worth restarting automatically. */
  readonly retry: boolean;
  /** Signing in would fix it: the server waits as *Sign in required*, not as failed. */
  readonly signIn?: boolean;
}

export function describeStartFailure(error: unknown, config: ServerConfig, stderrTail: readonly string[]): StartFailure {
  const output = lastOutput(stderrTail);
  const signIn = describeSignInFailure(error, config);
  if (signIn !== undefined) return { reason: signIn.reason, retry: false, signIn: signIn.signIn };
  if (error instanceof StartupTimeout) {
    return { reason: `${error.message}; raise quiver.mcp.startupTimeoutMs if the server is just slow.${output}`, retry: false };
  }
  if (error instanceof McpError && error.code === (ErrorCode.ConnectionClosed as number)) {
    return { reason: `exited while starting.${output}`, retry: true };
  }
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ENOENT' && config.transport === 'stdio') {
    return { reason: `could not run "${config.command}": command not found. Check "command" in ${describeSource(config.source)} or install the program.`, retry: false };
  }
  return { reason: `failed to start: ${errorText(error)}${output}`, retry: false };
}

export function exitReason(stderrTail: readonly string[]): string {
  return `exited unexpectedly.${lastOutput(stderrTail)}`;
}

export function untrustedReason(config: ServerConfig): string {
  return `not started: the workspace is not trusted and this server comes from ${describeSource(config.source)}. Trust the workspace to start it.`;
}

function lastOutput(stderrTail: readonly string[]): string {
  return stderrTail.length > 0 ? ` Last output:\n${stderrTail.join('\n')}` : '';
}

export const DORMANT_REASON = 'not started: every tool of this server is off in quiver.tools. Make it on or discoverable (right-click it) to start it, or Restart it to list its tools.';

export const SIGNED_OUT_REASON = 'signed out: Sign In to use this server again.';

export const IDLE_REASON = 'not started: none of its tools is on, so it starts when one of them is called (or on Restart); until then its tools are listed from the catalogue it listed last time.';

/** A call of a tool listed from a resting server's cached catalogue, when the server did not come up. */
export function wakeFailureText(tool: string, server: string, reason: string | undefined): string {
  return `The tool "${tool}" of MCP server "${server}" did not run: the server could not start${reason !== undefined ? `: ${reason}` : '.'}`;
}

/** A call of a tool from a cached catalogue that the server, once started, no longer lists: nothing was run. */
export function goneAfterStartText(tool: string, server: string, listed: number): string {
  return `The tool "${tool}" was not run: MCP server "${server}" no longer has it. It was in the catalogue the server listed last time, but now that it has started it lists ${listed} tools and not this one. Find another tool (search_tools) or tell the user.`;
}

/** A call of a tool whose server does not run (and did not start for it). */
export function notRunningText(server: string, reason: string | undefined): string {
  return `MCP server "${server}" is not running${reason ? `: ${reason}` : '.'}`;
}
