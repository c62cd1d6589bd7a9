// The status bar item opens the tool-overhead breakdown: a read-only preview per server and tool
// with the open conversation's searches; no keypress there changes settings. ctx = { page, settingsFile }.
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

export default function (t) {
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
    }, 60_000);
    await page.screenshot({ path: '.test-artifacts/screenshots/breakdown.png' });
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    if (readFileSync(settingsFile, 'utf8') !== before) throw new Error('a keypress in the breakdown changed settings.json');
  });
}
