import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { ToolCallResult } from '../core/tools';
import { describeSignInFailure } from './oauth/signInFailures';
import type { ServerConfig } from './serverConfig';

export interface CallErrorContext {
  readonly server: string;
  readonly tool: string;
  readonly config: ServerConfig;
  readonly timeoutMs: number;
  /** The server's last stderr lines, shown when it died mid-call because they usually say why. */
  readonly stderrTail: () => readonly string[];
}

const MAX_MESSAGE_CHARS = 2000;

/** A thrown call failure, told to the model as what failed and why, without stack traces. */
export function describeCallError(error: unknown, context: CallErrorContext): ToolCallResult {
  return { isError: true, content: [{ type: 'text', text: callErrorText(error, context) }] };
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

/** An error's message, cleaned as below, whatever was thrown; fetch's bare "fetch failed" gets its cause's code. */
export function errorText(error: unknown): string {
  if (!(error instanceof Error)) return cleanMessage(String(error));
  const cause = (error.cause as { code?: unknown } | undefined)?.code;
  return cleanMessage(typeof cause === 'string' && !error.message.includes(cause) ? `${error.message} (${cause})` : error.message);
}

/** Drops the SDK's `MCP error <code>:` prefix and any stack frames a server put in its message. */
export function cleanMessage(message: string): string {
  const text = stripStackFrames(message.replace(/^MCP error -?\d+: /, '')).trim();
  return text.length > MAX_MESSAGE_CHARS ? `${text.slice(0, MAX_MESSAGE_CHARS)}…` : text || 'no reason given';
}

/** Stack frames tell the model nothing it can act on and cost context. */
export function stripStackFrames(text: string): string {
  return text
    .split('\n')
    .filter((line) => !/^\s+at\s/.test(line))
    .join('\n');
}

export function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
