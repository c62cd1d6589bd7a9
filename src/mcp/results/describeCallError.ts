import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { ToolCallResult } from '../../core/tools';
import { describeSignInFailure } from '../oauth/signInFailures';
import type { ServerConfig } from '../config/serverConfig';
import { cleanMessage, errorText, formatSeconds } from '../common/errorText';
import { toolError } from './toolError';

export interface CallErrorContext {
  readonly server: string;
  readonly tool: string;
  readonly config: ServerConfig;
  readonly timeoutMs: number;
  /** The server's last stderr lines, shown when it died mid-call because they usually say why. */
  readonly stderrTail: () => readonly string[];
}

/** A thrown call failure, told to the model as what failed and why, without stack traces. */
export function describeCallError(error: unknown, context: CallErrorContext): ToolCallResult {
  return toolError(callErrorText(error, context));
}

function callErrorText(error: unknown, { server, tool, config, timeoutMs, stderrTail }: CallErrorContext): string {
  const what = `The tool "${tool}" of MCP server "${server}"`;
  const signIn = describeSignInFailure(error, config);
  if (signIn !== undefined) return `${what} did not run: ${signIn.reason} Tell the user; nothing was done.`;
  if (error instanceof McpError && error.code === (ErrorCode.RequestTimeout as number)) {
    return `${what} did not answer within ${formatSeconds(timeoutMs)} and the call was cancelled. Try a smaller request, or ask the user to raise the timeout.`;
  }
  if (error instanceof McpError && error.code === (ErrorCode.ConnectionClosed as number)) {
    const tail = stderrTail();
    return `${what} could not finish: the server stopped during the call.${tail.length > 0 ? ` Its last output:\n${tail.join('\n')}` : ''}`;
  }
  if (error instanceof McpError && error.code === (ErrorCode.InvalidParams as number)) {
    return `${what} rejected the arguments: ${cleanMessage(error.message)}`;
  }
  return `${what} failed: ${errorText(error)}`;
}
