// The model's thinking in the chat, in the real workbench against the scripted Messages API: replies
// that begin with a thinking block show a quiet "Thinking" section with its text, open while the
// turn runs and collapsed once it ends; it opens from the keyboard, shows again from the stream
// when the conversation is reopened, and stays readable in light, dark and both high-contrast
// themes. ctx = { page, settingsFile, scripted, scriptedModule }.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { SIDEBAR, chatFrame, chatWindow, ensureApiKey, runCommand, send, sleep, until, writeSetting } from './helpers.mjs';
import { THEMES, chatColours, textContrast, workbenchKind } from './themes.mjs';
import { treeRow } from './tree.mjs';

const SHOTS = join('.test-artifacts', 'screenshots');
const TITLE = 'Think about 2 + 3, then echo it.';
const FIRST = 'The user wants 2 + 3. I will echo the numbers first, to check that the tool works.';
const SECOND = 'The `echo` came back unchanged, so the answer is **5**.'; // inline code, so its colours are measured too

const sections = (chat) => chat.locator('details.thinking');
/** Whether each Thinking section is open, in transcript order. */
const openStates = async (page) => (await chatWindow(page)).evaluate(() => [...document.querySelectorAll('details.thinking')].map((d) => d.open));

async function newChat(page) {
  await runCommand(page, 'Quiver: New Chat');
  await until('the new chat is not empty', async () => (await chatFrame(page).locator('.item').count()) === 0);
}

export default function (t) {
  t.test('a reply\'s thinking shows in a Thinking section: open with its text while the turn runs, collapsed once it ends, opened from the keyboard', async ({ page, scripted, scriptedModule }) => {
    const { reply, text, toolUse, withThinking } = scriptedModule;
    await ensureApiKey(page);
    // Its echo is called at once: wait until its server is up and echo listed (see results.ui.mjs).
    await treeRow(page, ['On', 'everything', 'echo'], { ms: 45_000 });
    await newChat(page);
    const chat = chatFrame(page);
    // Each reply opens with a signed thinking block, as Claude Sonnet 5.5's do.
    scripted.enqueue(
      withThinking(FIRST, reply(toolUse('toolu_think_echo', 'everything__echo', { message: '2 + 3' }))),
      withThinking(SECOND, reply(text('2 + 3 = 5.'))),
    );
    await send(page, TITLE);
    // The echo waits for its approval: the turn is still running, and its thinking shows, open.
    await chat.getByRole('button', { name: 'Allow once' }).waitFor();
    const first = sections(chat).filter({ hasText: 'I will echo the numbers first' });
    await first.getByText('I will echo the numbers first', { exact: false }).waitFor({ state: 'visible' });
    await until(async () => `the running turn's Thinking section is not open: ${JSON.stringify(await openStates(page))}`, async () => JSON.stringify(await openStates(page)) === '[true]');
    mkdirSync(SHOTS, { recursive: true });
    await page.locator(SIDEBAR).screenshot({ path: join(SHOTS, 'thinking-live.png') });

    await chat.getByRole('button', { name: 'Allow once' }).click();
    await chat.getByText('2 + 3 = 5.').waitFor();
    await chat.locator('.composer .send').waitFor({ state: 'visible' }); // the turn has ended
    await until(async () => `the Thinking sections are not both collapsed after the turn: ${JSON.stringify(await openStates(page))}`, async () => JSON.stringify(await openStates(page)) === '[false,false]');
    const summaries = chat.locator('details.thinking > summary');
    for (const label of await summaries.allTextContents()) if (label.trim() !== 'Thinking') throw new Error(`a finished Thinking section is labelled "${label}"`);
    if (await chat.getByText('the answer is', { exact: false }).isVisible()) throw new Error('the collapsed Thinking section still shows its text');

    // A keyboard user opens it: focus its summary, press Enter.
    const last = summaries.last();
    const name = await last.getAttribute('aria-label');
    if (!/^Thinking\b/.test(name ?? '') || !/reasoning/.test(name ?? '')) throw new Error(`the Thinking summary's accessible name is ${JSON.stringify(name)}`);
    await last.focus();
    await last.press('Enter');
    await until(async () => `Enter on the summary did not open the section: ${JSON.stringify(await openStates(page))}`, async () => JSON.stringify(await openStates(page)) === '[false,true]');
    const bold = sections(chat).last().locator('.thinking-body .markdown strong');
    if ((await bold.textContent()) !== '5') throw new Error('the thinking text is not rendered as markdown');
    await chat.getByText('the answer is', { exact: false }).waitFor({ state: 'visible' });
    await page.locator(SIDEBAR).screenshot({ path: join(SHOTS, 'thinking-done.png') });
    await last.press('Enter');
    await until('Enter again did not collapse the section', async () => JSON.stringify(await openStates(page)) === '[false,false]');
  });

  t.test('a reopened conversation shows its thinking again, from the stream, collapsed', async ({ page }) => {
    const chat = chatFrame(page);
    await newChat(page);
    await chat.getByRole('button', { name: 'Show chats' }).click();
    await chat.locator('.history-row .history-open').filter({ hasText: TITLE }).first().click();
    await chat.locator('.item.user').filter({ hasText: TITLE }).waitFor();
    await until(async () => `the reopened chat's Thinking sections: ${JSON.stringify(await openStates(page))}`, async () => JSON.stringify(await openStates(page)) === '[false,false]');
    const texts = await sections(chat).locator('.thinking-body').allTextContents();
    if (!texts[0]?.includes('I will echo the numbers first') || !texts[1]?.includes('the answer is 5')) throw new Error(`the reopened chat's thinking reads ${JSON.stringify(texts)}`);
  });

  t.test('the Thinking section is readable in light, dark and both high-contrast themes (contrast ≥ 4.5:1)', async ({ page, settingsFile }) => {
    const chat = chatFrame(page);
    const last = chat.locator('details.thinking > summary').last();
    await last.click();
    await chat.getByText('the answer is', { exact: false }).waitFor({ state: 'visible' });
    try {
      for (const [theme, kind] of THEMES) {
        writeSetting(settingsFile, ['workbench.colorTheme'], theme);
        await until(`the workbench did not switch to ${theme}`, async () => (await workbenchKind(page)) === kind);
        await sleep(1000); // the webview restyles after the workbench
        // Every piece of text of the open section (its label, prose and inline code), beside the reply's.
        const colours = [...await chatColours(page, ['.thinking > summary .thinking-label', '.thinking[open] .thinking-body .markdown p', '.item.assistant p']), ...await textContrast(page, ['.thinking[open]'])];
        await page.locator(SIDEBAR).screenshot({ path: join(SHOTS, `thinking-${kind}.png`) });
        if (colours.length < 3) throw new Error(`${theme}: the Thinking section was not found to check: ${JSON.stringify(colours)}`);
        const poor = colours.filter((c) => c.ratio < 4.5);
        if (poor.length > 0) throw new Error(`${theme}: text below 4.5:1 contrast: ${JSON.stringify(poor)}`);
      }
    } finally {
      writeSetting(settingsFile, ['workbench.colorTheme'], undefined);
    }
  });
}
