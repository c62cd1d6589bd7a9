// The status bar item opens the tool-overhead breakdown: a read-only preview per server and tool
// with the open conversation's searches, within the width of its view; no keypress there changes
// settings. The item itself reads as plain words. ctx = { page, settingsFile }.
import { readFileSync } from 'node:fs';
import { STATUS, until } from './helpers.mjs';

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

}
