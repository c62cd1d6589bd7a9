// Shared by the workbench UI tests (not a test file: the harness collects only *.ui.mjs).
import { readFileSync, writeFileSync } from 'node:fs';
import { applyEdits, modify } from 'jsonc-parser';

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

/**
 * Polls every `checks` entry (name → async predicate) from `t0` until all held, and returns the
 * milliseconds from `t0` at which each first held: the figures a test prints, never asserts on.
 */
export async function timesUntil(what, t0, checks, ms = 40_000) {
  const at = {};
  await until(() => `${what}: ${Object.keys(checks).filter((k) => at[k] === undefined).join(', ')} never held`, async () => {
    for (const [name, check] of Object.entries(checks)) if (at[name] === undefined && (await check())) at[name] = Date.now() - t0;
    return Object.keys(checks).every((k) => at[k] !== undefined);
  }, ms);
  return at;
}

/** Edits one value of a settings.json in place, as a user's editor would (undefined removes it). */
export function writeSetting(file, path, value) {
  const text = readFileSync(file, 'utf8');
  writeFileSync(file, applyEdits(text, modify(text, path, value, { formattingOptions: { insertSpaces: true, tabSize: 2 } })));
}

// ---- The chat webview -------------------------------------------------------------

const OUTER = 'iframe.webview.ready[src*="extensionId=quiver-dev.quiver"]';
export const chatFrame = (page) => page.frameLocator(OUTER).frameLocator('iframe#active-frame');

/** The chat document itself, for evaluating in the webview's own window. */
export async function chatWindow(page) {
  const handle = await page.frameLocator(OUTER).locator('iframe#active-frame').elementHandle();
  const frame = await handle?.contentFrame();
  if (!frame) throw new Error('the chat webview frame is not there');
  return frame;
}

export async function openChat(page) {
  if (!(await page.locator(SIDEBAR).isVisible())) await page.locator(ICON).click();
  await chatFrame(page).getByRole('textbox', { name: 'Message' }).waitFor({ state: 'visible' });
}

/** Runs Quiver: Set API Key and enters `key` ('' removes the stored key), as a user does. */
export async function setApiKey(page, key) {
  await runCommand(page, 'Quiver: Set API Key');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(key);
  await input.press('Enter');
}

/** Stores a key unless the chat already has one. */
export async function ensureApiKey(page) {
  await openChat(page);
  if (!(await chatFrame(page).locator('.api-key-notice').isVisible())) return;
  await setApiKey(page, 'sk-ant-e2e-scripted-key');
  await chatFrame(page).locator('.api-key-notice').waitFor({ state: 'hidden' });
}

export async function runCommand(page, title) {
  const input = page.locator('.quick-input-widget input');
  // Right after a window reload the palette can open inert and then close (seen in CI): open it again.
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('F1');
    try {
      await input.fill(`>${title}`, { timeout: 5_000 });
      break;
    } catch (err) {
      if (attempt >= 4) throw err;
      await page.keyboard.press('Escape');
      await page.waitForTimeout(1_000);
    }
  }
  await page.locator('.quick-input-widget .monaco-list-row').filter({ hasText: title }).first().waitFor();
  await input.press('Enter');
}

/** A mark left in the chat page now, so a later look can tell whether VS Code has replaced the page. */
async function markPage(page) {
  const mark = `page-${Date.now()}-${Math.random()}`;
  await (await chatWindow(page)).evaluate((m) => { window.__quiverPageMark = m; }, mark);
  return mark;
}

async function pageReplaced(page, mark) {
  try {
    return (await (await chatWindow(page)).evaluate(() => window.__quiverPageMark)) !== mark;
  } catch {
    return false; // the frame is being swapped: look again
  }
}

const shownAsSent = async (page, text) => (await chatFrame(page).locator('.item.user').filter({ hasText: text }).count()) > 0;

/**
 * Types `text` in the message box and presses Enter. VS Code reloads a webview view's page when it
 * hides and shows the view; a page replaced just as Enter is pressed takes the typed text and its
 * message to the host with it, as a user would see: so when the page was replaced and the message
 * shows nowhere, it is typed again once, into the new page. A page that was not replaced is never
 * sent the text twice.
 */
export async function send(page, text) {
  const mark = await markPage(page);
  const box = chatFrame(page).getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
  for (const deadline = Date.now() + 1500; Date.now() < deadline; await sleep(100)) {
    if (await shownAsSent(page, text)) return;
    if (await pageReplaced(page, mark)) {
      // The host may have had the message all the same: the new page shows it from its first snapshot.
      for (const settled = Date.now() + 2000; Date.now() < settled; await sleep(100)) if (await shownAsSent(page, text)) return;
      await box.fill(text);
      await box.press('Enter');
      return;
    }
  }
}

/**
 * Shows Quiver's side bar. After a reload the workbench draws the side bar a moment after itself,
 * and the activity bar icon toggles: a click while the side bar is being restored closes it again
 * (seen in CI under load). So the icon is clicked only while it is not the active one, and the
 * side bar is looked for again until it shows.
 */
export async function openSidebar(page) {
  const sidebar = page.locator(SIDEBAR);
  const item = page.locator('.activitybar .action-item:has(a.action-label[aria-label^="Quiver"])').first();
  await until('the Quiver side bar did not open', async () => {
    if (await sidebar.isVisible()) return true;
    if (!/\bchecked\b/.test((await item.getAttribute('class', { timeout: 2_000 })) ?? '')) await page.locator(ICON).click({ timeout: 2_000 });
    return false;
  }, 30_000);
}

