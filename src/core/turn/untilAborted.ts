/**
 * `work`, or `fallback` as soon as the signal aborts (or `graceMs` after it, for work that hands
 * back what it had when stopped): a tool, an approver or a server start that ignores the signal
 * cannot hold the turn.
 */
export async function untilAborted<T>(work: Promise<T>, signal: AbortSignal, fallback: T, graceMs = 0): Promise<T> {
  let onAbort: (() => void) | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const cancelled = new Promise<T>((resolve) => {
    onAbort = () => {
      if (graceMs <= 0) resolve(fallback);
      else timer = setTimeout(() => resolve(fallback), graceMs);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work, cancelled]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}
