// The status bar item opens the tool-overhead breakdown: a read-only preview per server and tool
// with the open conversation's searches, within the width of its view; no keypress there changes
// settings. The item itself reads as plain words. New Chat empties its conversation part at once;
// after a window reload the restored tab shows the breakdown again. ctx = { page, settingsFile, scripted, scriptedModule }.
import { readFileSync } from 'node:fs';
import { STATUS, chatFrame, ensureApiKey, runCommand, send, until } from './helpers.mjs';

const PREVIEW_TAB = '.tabs-container .tab:has-text("Quiver tool overhead")';

/** The text of the breakdown's markdown preview (a webview in the editor area). */
async function previewText(page) {
  for (const frame of page.frames().filter((f) => f !== page.mainFrame())) {
    const text = await frame.evaluate(() => document.body?.innerText ?? '').catch(() => '');
    if (text.includes('Per server')) return text;
  }
  return '';
}

/** Tables or lines of the breakdown's preview wider than its view (it scrolls sideways otherwise). */
async function previewOverflow(page) {
  for (const frame of page.frames().filter((f) => f !== page.mainFrame())) {
    const found = await frame.evaluate(() => {
      if (!(document.body?.innerText ?? '').includes('Per server')) return null;
      const width = document.documentElement.clientWidth;
      return [...document.querySelectorAll('table, p, li, h1, h2, h3')]
        .filter((el) => el.getBoundingClientRect().right > width + 1)
        .map((el) => `${el.tagName.toLowerCase()} ${Math.round(el.getBoundingClientRect().right)} px > ${width} px: ${(el.textContent ?? '').slice(0, 60)}`);
    }).catch(() => null);
    if (found) return found;
  }
  throw new Error('the breakdown preview was not found');
}

export default function (t) {
  t.test('the status bar item reads as plain words to a screen reader, not as its markdown tooltip', async ({ page }) => {
    const item = page.locator(STATUS);
    await item.waitFor({ state: 'visible' });
    const labels = await page.locator(`${STATUS}[aria-label], ${STATUS} [aria-label]`).evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
    const label = labels.find((l) => l.startsWith('Quiver tool definitions'));
    if (!label || !/^Quiver tool definitions: \d+ on, \d+ discoverable, about [\d,]+ tokens on every request/.test(label) || /\*\*|\]\(|command:/.test(label)) {
      throw new Error(`the status bar item's aria-label is ${JSON.stringify(labels)}`);
    }
  });

  t.test('clicking the status bar opens the breakdown per server and tool; Enter there changes nothing', async ({ page, settingsFile }) => {
    const before = readFileSync(settingsFile, 'utf8');
    await page.locator(STATUS).click();
    await page.locator(PREVIEW_TAB).first().waitFor();
    // Servers still starting join the open breakdown as they come up.
    const expected = [/Per server/, /Per tool/, /This conversation/, /Loaded up front on every request/, /everything/, /filesystem/, /memory/, /Searches: \d+/];
    let text = '';
    await until(() => `the breakdown lacks ${expected.filter((e) => !e.test(text)).join(', ')}: ${text.slice(0, 300)}`, async () => {
      text = await previewText(page);
      return expected.every((e) => e.test(text));
    }, 45_000); // within the test's own minute, so a failure says what is missing
    await page.screenshot({ path: '.test-artifacts/screenshots/breakdown.png' });
    const overflow = await previewOverflow(page);
    if (overflow.length > 0) throw new Error(`the breakdown runs off the right edge: ${overflow.join('; ')}`);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    if (readFileSync(settingsFile, 'utf8') !== before) throw new Error('a keypress in the breakdown changed settings.json');
  });

  t.test('New Chat empties the breakdown\'s conversation part at once, with no request', async ({ page, scripted, scriptedModule }) => {
    const { reply, toolUse } = scriptedModule;
    await ensureApiKey(page);
    await runCommand(page, 'Quiver: New Chat');
    scripted.enqueue(reply(toolUse('toolu_breakdown_search', 'search_tools', { query: 'add two numbers' })), reply(scriptedModule.text('The search is done.')));
    await send(page, 'Find a tool that adds numbers (breakdown)');
    await chatFrame(page).getByText('The search is done.').waitFor({ timeout: 45_000 });
    await page.locator(STATUS).click();
    await page.locator(PREVIEW_TAB).first().waitFor();
    let text = '';
    await until(() => `the breakdown does not show the search of this conversation: ${conversationPart(text)}`, async () => {
      text = await previewText(page);
      return /This conversation: Find a tool that adds numbers/.test(text) && /Searches: 1,/.test(text);
    });
    const requests = scripted.requests.length;
    // As a user works: another editor over the breakdown's tab while the chat moves on.
    await runCommand(page, 'Preferences: Open Workspace Settings (JSON)');
    await page.locator('.tabs-container .tab.active').filter({ hasText: 'settings.json' }).waitFor();
    await runCommand(page, 'Quiver: New Chat');
    await page.locator(PREVIEW_TAB).first().click();
    await until(() => `after New Chat the breakdown still shows the previous conversation: ${conversationPart(text)}`, async () => {
      text = await previewText(page);
      return /This conversation: New chat/.test(text) && /Searches: 0,/.test(text);
    }, 15_000);
    if (scripted.requests.length !== requests) throw new Error('New Chat sent a request');
  });

  // Two steps, each with its own minute: on a busy machine the workbench alone took 45 s to come back.
  t.test('a window reload with the breakdown open restores its tab', async ({ page }) => {
    if ((await page.locator(PREVIEW_TAB).count()) === 0) await page.locator(STATUS).click();
    await page.locator(PREVIEW_TAB).first().waitFor();
    await page.reload();
    await page.locator('.monaco-workbench').waitFor({ timeout: 50_000 });
    await page.locator(PREVIEW_TAB).first().waitFor({ timeout: 50_000 });
  });

  t.test('the restored breakdown tab shows the breakdown, not "cannot be found"', async ({ page }) => {
    await page.locator(PREVIEW_TAB).first().click();
    let text = '';
    await until(async () => `the restored tab shows ${JSON.stringify((await previewBodies(page)).join(' | ').slice(0, 300))}`, async () => {
      text = await previewText(page);
      return /Per server/.test(text) && /This conversation: New chat/.test(text);
    }, 40_000);
  });
}

/** The breakdown's conversation part, to fail with. */
const conversationPart = (text) => JSON.stringify(text.slice(text.indexOf('This conversation'), text.indexOf('This conversation') + 200));

/** What every webview in the editor area shows, to fail with (a preview's "cannot be found" page included). */
async function previewBodies(page) {
  const bodies = [];
  for (const frame of page.frames().filter((f) => f !== page.mainFrame())) {
    const body = await frame.evaluate(() => document.body?.innerText ?? '').catch(() => '');
    if (body.trim() !== '') bodies.push(body.replace(/\s+/g, ' '));
  }
  return bodies;
}
