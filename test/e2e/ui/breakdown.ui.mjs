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
    let text = '';
    await until(() => `the preview does not show the breakdown: ${text.slice(0, 300)}`, async () => {
      text = await previewText(page);
      return /Per server/.test(text) && /Per tool/.test(text) && /This conversation/.test(text);
    });
    for (const expected of [/Loaded up front on every request/, /everything/, /filesystem/, /Searches: \d+/]) {
      if (!expected.test(text)) throw new Error(`the breakdown lacks ${expected}: ${text.slice(0, 400)}`);
    }
    await page.screenshot({ path: '.test-artifacts/screenshots/breakdown.png' });
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    if (readFileSync(settingsFile, 'utf8') !== before) throw new Error('a keypress in the breakdown changed settings.json');
  });
}
