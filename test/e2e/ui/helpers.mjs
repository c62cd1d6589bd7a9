// Shared by the workbench UI tests (not a test file: the harness collects only *.ui.mjs).
export const SIDEBAR = '[id="workbench.view.extension.quiver"]';
export const ICON = '.activitybar a.action-label[aria-label^="Quiver"]';
export const STATUS = '[id="quiver-dev.quiver.quiver.overhead"]';

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` until it is true; fails with `what` (a string or a function giving one). */
export async function until(what, check, ms = 20_000) {
  const deadline = Date.now() + ms;
  let last;
  for (;;) {
    try {
      if (await check()) return;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) {
      const message = typeof what === 'function' ? await what() : what;
      throw new Error(`${message}${last ? ` (${String(last)})` : ''}`);
    }
    await sleep(200);
  }
}
