// Everything the chat draws stays readable. One scripted turn puts an attachment chip, markdown
// with inline code, highlighted code blocks and tables, a search card, a tool card and a failed
// tool card in the transcript; every visible piece of text in them is measured against what is
// behind it (≥ 4.5:1) in light, dark and both high-contrast themes; and a long code line scrolls
// inside its block while a wide table scrolls inside itself, never the whole chat.
// ctx = { page, settingsFile, scripted, scriptedModule }.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { SIDEBAR, chatFrame, chatWindow, ensureApiKey, send, sleep, until, writeSetting } from './helpers.mjs';
import { THEMES, textContrast, workbenchKind } from './themes.mjs';
import { treeRow } from './tree.mjs';

const SHOTS = join('.test-artifacts', 'screenshots');

/** Fenced blocks in the languages a reply most often holds, each with several kinds of token. */
const CODE_REPLY = [
  'Call `add(a, b)` from **`src/math.ts`**; the results:',
  '',
  '| input | `add` returns | note |',
  '|---|---|---|',
  '| `1, 2` | `3` | the usual case, with a cell long enough to need the width of the view |',
  '',
  '| tool | server | availability | estimated tokens | promoted |',
  '|---|---|---|---|---|',
  '| everything__get-resource-reference | everything | discoverable | 1,234 | yes |',
  '',
  '| a | b | c | d | e | f | g | h | i | j |',
  '|---|---|---|---|---|---|---|---|---|---|',
  '| one | two | three | four | five | six | seven | eight | nine | ten |',
  '',
  '```ts',
  '// Adds two numbers; a long line follows so the block has to scroll inside itself, not the whole chat.',
  'export function add(a: number, b: number): number { return a + b; } // and then some more words to be sure it is wider than the view',
  'const label = `sum ${add(1, 2)}`, ok = true, none = null;',
  'class Counter<T> extends Base { private n = 0x1f; @logged count(): void {} }',
  '```',
  '',
  '```python',
  'import re',
  'def twice(x: int) -> int:',
  '    """Doubles x."""',
  "    return x * 2  # comment",
  '```',
  '',
  '```json',
  '{ "name": "quiver", "version": 1, "private": true, "deps": null }',
  '```',
  '',
  '```bash',
  'export PATH="$HOME/bin:$PATH" && npm test -- unit # run the tests',
  '```',
  '',
  '```diff',
  '- removed line',
  '+ added line',
  '```',
  '',
  '```html',
  '<div class="a" id=\'b\'>&amp; text</div>',
  '```',
].join('\n');

export default function (t) {
  t.test('chips, markdown, code blocks, tool cards and the search card are readable in light, dark and both high-contrast themes (contrast ≥ 4.5:1)', async ({ page, settingsFile, scripted, scriptedModule }) => {
    const { reply, text, toolUse } = scriptedModule;
    await ensureApiKey(page);
    // Its echo is called in the first turn: wait until its server is up and echo listed.
    await treeRow(page, ['On', 'everything', 'echo'], { ms: 45_000 });
    const chat = chatFrame(page);
    scripted.enqueue(
      reply(text(CODE_REPLY), toolUse('toolu_contrast_search', 'search_tools', { query: 'add two numbers' })),
      reply(toolUse('toolu_contrast_echo', 'everything__echo', { message: 'hello' })),
      // No message: the server refuses the call, so the card shows its error.
      reply(toolUse('toolu_contrast_fail', 'everything__echo', {})),
      reply(text('Done.')),
    );
    // The mention is not last, so no completion list is open to take the Enter.
    await send(page, 'Show me some code for #file:notes.txt in a few languages');
    await chat.getByRole('button', { name: 'Allow once' }).click();
    await chat.locator('.tool-card.status-done').first().waitFor();
    await chat.getByRole('button', { name: 'Allow once' }).click();
    await chat.locator('.tool-card.status-error').first().waitFor();
    await chat.getByText('Done.').waitFor();
    await chat.locator('.composer .send').waitFor({ state: 'visible' }); // the turn has ended
    await chat.locator('.item.user .attachment-chip').first().waitFor();
    // Cards open so their bodies are measured too.
    const closed = chat.locator('details.card:not([open]) > summary');
    await until('a tool or search card stayed closed', async () => {
      if ((await closed.count()) === 0) return true;
      await closed.first().click();
      return false;
    });
    const parts = { '.item.user': 'the user message and its chip', '.item.assistant:has(.code-block)': 'markdown and code blocks', '.code-block': 'code blocks', '.tool-card': 'the tool cards', '.tool-card.status-error': 'the failed tool card', '.search-card': 'the search card', '.composer': 'the message box' };
    mkdirSync(SHOTS, { recursive: true });
    const problems = []; // every theme is measured before failing, so one run reports them all
    try {
      for (const [theme, kind] of THEMES) {
        writeSetting(settingsFile, ['workbench.colorTheme'], theme);
        await until(`the workbench did not switch to ${theme}`, async () => (await workbenchKind(page)) === kind);
        await sleep(1000); // the webview restyles after the workbench
        await page.locator(SIDEBAR).screenshot({ path: join(SHOTS, `readability-${kind}.png`) });
        await chat.locator('.code-block').first().scrollIntoViewIfNeeded();
        await page.locator(SIDEBAR).screenshot({ path: join(SHOTS, `readability-${kind}-code.png`) });
        const measured = await textContrast(page, Object.keys(parts));
        const missing = Object.entries(parts).filter(([selector]) => !measured.some((m) => m.selector === selector)).map(([, what]) => what);
        if (missing.length > 0) problems.push(`${theme}: no text found to check in ${missing.join(', ')}`);
        const poor = measured.filter((m) => m.ratio < 4.5);
        if (poor.length > 0) problems.push(`${theme}: ${poor.length} of ${measured.length} pieces of text below 4.5:1 contrast: ${JSON.stringify(poor.slice(0, 12))}`);
        const tokens = measured.filter((m) => m.selector === '.code-block' && /hljs-/.test(m.element)).length;
        if (tokens < 10) problems.push(`${theme}: the code blocks show only ${tokens} highlighted tokens`);
      }
    } finally {
      writeSetting(settingsFile, ['workbench.colorTheme'], undefined);
    }
    if (problems.length > 0) throw new Error(problems.join('\n'));
  });

  t.test('a long code line scrolls inside its block, tables fit the view (one of ten columns scrolls inside itself): the chat never scrolls sideways, no cell is cut', async ({ page }) => {
    const chat = chatFrame(page);
    await chat.locator('.code-block').first().scrollIntoViewIfNeeded();
    const layout = await (await chatWindow(page)).evaluate(() => {
      const box = (el) => ({ scroll: el.scrollWidth, client: el.clientWidth, overflowX: window.getComputedStyle(el).overflowX, right: Math.round(el.getBoundingClientRect().right) });
      const transcript = document.querySelector('.transcript');
      return {
        transcript: box(transcript),
        view: Math.round(transcript.getBoundingClientRect().right),
        pres: [...document.querySelectorAll('.code-block pre')].map(box),
        tables: [...document.querySelectorAll('.markdown table')].map((table) => ({ ...box(table), cutCells: [...table.querySelectorAll('th, td')].filter((c) => c.scrollWidth > c.clientWidth + 1).map((c) => c.textContent) })),
      };
    });
    const scrolls = (b) => b.overflowX === 'auto' || b.overflowX === 'scroll';
    if (layout.transcript.scroll > layout.transcript.client + 1) throw new Error(`the whole chat scrolls sideways: ${JSON.stringify(layout.transcript)}`);
    const wide = layout.pres.filter((p) => p.scroll > p.client);
    if (wide.length === 0) throw new Error(`the long line did not overflow its block, so the test shows nothing: ${JSON.stringify(layout.pres)}`);
    for (const b of [...layout.pres, ...layout.tables]) {
      if (b.right > layout.view + 1) throw new Error(`a block reaches past the chat's right edge: ${JSON.stringify(b)} (view ends at ${layout.view})`);
      if (b.scroll > b.client + 1 && !scrolls(b)) throw new Error(`a block wider than the view does not scroll: ${JSON.stringify(b)}`);
    }
    for (const t of layout.tables) if (t.cutCells.length > 0) throw new Error(`table cells cut off: ${JSON.stringify(t.cutCells)}`);
    // Three and five columns fit the side bar's width (cells wrap); only the ten-column table scrolls.
    const [three, five, ten] = layout.tables;
    for (const [name, t] of [['three', three], ['five', five]]) if (!t || t.scroll > t.client + 1) throw new Error(`the ${name}-column table does not fit the view: ${JSON.stringify(t)}`);
    if (!ten || ten.scroll <= ten.client) throw new Error(`the ten-column table was expected to scroll inside itself: ${JSON.stringify(ten)}`);
    mkdirSync(SHOTS, { recursive: true });
    await chat.locator('.markdown table').last().scrollIntoViewIfNeeded();
    await page.locator(SIDEBAR).screenshot({ path: join(SHOTS, 'readability-table.png') });
  });
}
