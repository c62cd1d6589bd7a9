/** `work`, or `fallback` as soon as the signal aborts: a tool, an approver or a server start that ignores the signal cannot hold the turn. */
export async function untilAborted<T>(work: Promise<T>, signal: AbortSignal, fallback: T): Promise<T> {
  let onAbort: (() => void) | undefined;
  const cancelled = new Promise<T>((resolve) => {
    onAbort = () => resolve(fallback);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work, cancelled]);
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}
