// Workbench UI tests: Quiver's container, chat webview, tools tree and status bar item in
// code-server. Run by scripts/e2e/run.mjs in order, on one page; ctx = { page, settingsFile }.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

import { ICON, SIDEBAR, STATUS, openSidebar, sleep, timesUntil, until } from './helpers.mjs';
import { contextMenu, pane, revealRow, row, treeRow } from './tree.mjs';

export default function (t) {
  t.test('the Quiver icon in the activity bar opens the sidebar', async ({ page }) => {
    const icon = page.locator(ICON);
    await icon.waitFor({ state: 'visible' });
    if (await page.locator(SIDEBAR).isVisible()) await icon.click(); // start from a closed container
    await icon.click();
    await page.locator(SIDEBAR).waitFor({ state: 'visible' });
    await until('the Quiver activity bar item is not marked checked', async () =>
      /\bchecked\b/.test((await icon.locator('xpath=ancestor::li[1]').getAttribute('class')) ?? ''));
  });

  t.test('the chat webview renders', async ({ page }) => {
    await openSidebar(page);
    const chat = page.frameLocator('iframe.webview.ready[src*="extensionId=quiver-dev.quiver"]').frameLocator('iframe#active-frame');
    await chat.locator('body *:visible').first().waitFor({ state: 'visible' });
    await chat.getByRole('textbox').first().waitFor({ state: 'visible' }); // the message composer
  });

  t.test('by default the chat takes most of the sidebar, the Tools pane below it the rest', async ({ page }) => {
    await openSidebar(page);
    const heights = {};
    for (const title of ['Chat', 'Tools']) {
      const body = pane(page, title).locator('.pane-body');
      await body.waitFor({ state: 'visible' });
      heights[title.toLowerCase()] = { pane: (await pane(page, title).boundingBox())?.height ?? 0, body: (await body.boundingBox())?.height ?? 0 };
    }
    const sidebar = (await page.locator(SIDEBAR).boundingBox())?.height ?? 0;
    console.log(`    [layout] sidebar ${Math.round(sidebar)} px: Chat pane ${Math.round(heights.chat.pane)} px (body ${Math.round(heights.chat.body)}), Tools pane ${Math.round(heights.tools.pane)} px (body ${Math.round(heights.tools.body)}); bodies ${(heights.chat.body / heights.tools.body).toFixed(2)} : 1`);
    if (!(heights.chat.body > heights.tools.body)) throw new Error(`the Chat pane's body (${heights.chat.body} px) is not larger than the Tools pane's (${heights.tools.body} px)`);
  });

  t.test('the tools tree shows the groups On, Discoverable and Off', async ({ page }) => {
    await openSidebar(page);
    for (const label of ['On', 'Discoverable', 'Off']) await revealRow(page, row(page, label, 1));
  });

  t.test('right-click a tool → Make Discoverable moves it in settings, the tree and the status bar', async ({ page, settingsFile }) => {
    await openSidebar(page);
    const onCount = async () => Number(/(\d+) on/.exec(await page.locator(STATUS).innerText())?.[1]);
    const groupCount = async (label) => Number(/(\d+)\s*$/.exec((await (await revealRow(page, row(page, label, 1))).innerText()).trim())?.[1]);
    // Servers may still be starting: take the figures once the status bar holds still.
    let last = '';
    await until('the status bar kept changing', async () => {
      const now = await page.locator(STATUS).innerText();
      const still = now === last;
      last = now;
      await sleep(1500);
      return still;
    }, 40_000);
    const before = { status: await onCount(), on: await groupCount('On'), discoverable: await groupCount('Discoverable') };
    // The fixture turns everything__echo on.
    await contextMenu(page, await treeRow(page, ['On', 'everything', 'echo']), 'Make Discoverable');
    const clicked = Date.now();
    // Under "*": { "enable": "discoverable" } the entry would only repeat what it inherits: it goes.
    const moved = () => `settings.json ${readFileSync(settingsFile, 'utf8').includes('"everything__echo"') ? 'still has' : 'lost'} its entry for everything__echo; ` +
      `the status bar says ${before.status} on before; the tree groups were On ${before.on}, Discoverable ${before.discoverable}`;
    const at = await timesUntil(moved, clicked, {
      'settings.json written': () => !readFileSync(settingsFile, 'utf8').includes('"everything__echo"'),
      'tree moved': async () => (await groupCount('On')) === before.on - 1 && (await groupCount('Discoverable')) === before.discoverable + 1,
      'status bar moved': async () => (await onCount()) === before.status - 1,
    });
    console.log(`    [timing] right-click Make Discoverable on a tool, ms after the click: ${Object.entries(at).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  });

  t.test('right-click a server → Make Off stops its process and lists it as off; Make Discoverable there starts it again', async ({ page, settingsFile }) => {
    await openSidebar(page);
    const memoryRunning = () => execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' }).includes('server-memory/dist/index.js');
    await until('the memory server process is not running', () => memoryRunning(), 40_000);
    await contextMenu(page, await treeRow(page, ['Discoverable', 'memory']), 'Make Off');
    await until(() => `settings.json does not turn memory__* off:\n${readFileSync(settingsFile, 'utf8')}`,
      () => /"memory__\*"\s*:\s*\{\s*"enable"\s*:\s*(?:"off"|\{\s*"availability"\s*:\s*"off")/.test(readFileSync(settingsFile, 'utf8')));
    await treeRow(page, ['Servers not running', 'memory'], { hasText: /off: not started/ });
    await until('the memory server process is still running after Make Off', () => !memoryRunning());
    await contextMenu(page, await treeRow(page, ['Servers not running', 'memory'], { hasText: /off: not started/ }), 'Make Discoverable');
    await until('the memory server did not start again', () => memoryRunning(), 40_000);
    // Back under Discoverable once its tools are listed (a server row there shows their tokens).
    await treeRow(page, ['Discoverable', 'memory'], { hasText: /tok$/, ms: 40_000 });
  });

  t.test('the status bar item shows the token overhead', async ({ page }) => {
    const item = page.locator(STATUS);
    await item.waitFor({ state: 'visible' });
    await until(async () => `status bar item text has no "tok": ${await item.innerText().catch(() => '?')}`, async () => /tok/.test(await item.innerText()));
  });
}
