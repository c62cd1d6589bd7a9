const MAX_MESSAGE_CHARS = 2000;

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
