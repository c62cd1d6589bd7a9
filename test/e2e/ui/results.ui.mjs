// A tool result too long to send whole, in the real editor with a real MCP server (server-everything's
// echo, made to return about 43,000 characters): the model gets a bounded view and a reference; the
// card says how much it showed and that the whole is kept; Open full result shows the whole in a
// read-only editor; after a window reload the card still opens it and the model reads it back with
// read_result. ctx = { page, scripted, scriptedModule }.
import { STATUS, chatFrame, ensureApiKey, openChat, runCommand, send, until } from './helpers.mjs';
import { treeRow } from './tree.mjs';

const NEEDLE = 'INV-88213';
const LINE = 1_101;
const MESSAGE = Array.from({ length: 1_200 }, (_, i) => (i + 1 === LINE ? `row ${i + 1}: ${NEEDLE} disputed` : `row ${i + 1}: settled, nothing to see`)).join('\n');
/** What the echo returns, as the server writes it. */
const WHOLE = `Echo: ${MESSAGE}`;
const TAB = '.tabs-container .tab:has-text("everything__echo (r1)")';

/** The text of every tool_result in a request's latest user message, in order. */
function toolResults(body) {
  const last = [...(body?.messages ?? [])].reverse().find((m) => m.role === 'user');
  return (last?.content ?? []).filter((b) => b.type === 'tool_result').map((b) => (b.content ?? []).map((c) => c.text ?? '').join(''));
}

const echoCard = (page) => chatFrame(page).locator('.tool-card').filter({ hasText: 'everything__echo' }).last();

/** Opens the whole result from the card and checks the editor: its tab, the line that matters, and that it takes no edit. */
async function openWholeFromCard(page) {
  await echoCard(page).getByRole('button', { name: 'Open full result' }).click();
  await page.locator(TAB).first().waitFor();
  // The editor draws only the lines in view: go to the one that matters.
  await until('the editor of the whole result did not reach its line', async () => {
    await page.locator('.editor-instance .monaco-editor').last().click();
    await page.keyboard.press('Control+G');
    await page.keyboard.type(String(LINE));
    await page.keyboard.press('Enter');
    // Monaco draws spaces as no-break spaces.
    return (await page.locator('.editor-instance .view-lines').last().innerText()).replaceAll('\u00a0', ' ').includes(`row ${LINE}: ${NEEDLE} disputed`);
  }, 20_000);
  await page.keyboard.type('edit attempt');
  if ((await page.locator(`${TAB}.dirty`).count()) > 0) throw new Error('the whole result took an edit: it should open read-only');
}

export default function (t) {
  t.test('a long result is kept whole: the card says how much the model got, and Open full result shows the whole, read-only', async ({ page, scripted, scriptedModule }) => {
    const { reply, text, toolUse } = scriptedModule;
    await ensureApiKey(page);
    // A message sent while its server is still starting goes without that server's tools (the
    // turn waits only for tools the conversation named): wait, as a user would, for echo to be listed.
    await treeRow(page, ['On', 'everything', 'echo'], { ms: 45_000 });
    const before = scripted.requests.length;
    scripted.enqueue(reply(toolUse('toolu_long_echo', 'everything__echo', { message: MESSAGE })), reply(text('The long echo came back.')));
    await send(page, 'Echo this long list back.');
    const chat = chatFrame(page);
    await chat.getByRole('button', { name: 'Allow once' }).click();
    await chat.getByText('The long echo came back.').waitFor();
    const [view] = toolResults(scripted.requests.at(-1)?.body);
    if (!(view ?? '').startsWith(`[Result r1 of everything__echo, status: truncated. The whole result is ${WHOLE.length.toLocaleString('en-US')} characters`)) throw new Error(`the model did not get a view: ${String(view).slice(0, 300)}`);
    if (view.includes(NEEDLE)) throw new Error('the view holds the line near the tail: it was not shortened');
    if (scripted.requests.length - before !== 2) throw new Error(`${scripted.requests.length - before} requests for one call and one answer`);
    const note = echoCard(page).locator('.kept-note');
    await note.waitFor();
    const said = await note.innerText();
    const expected = new RegExp(`showed [\\d,]+ of ${WHOLE.length.toLocaleString('en-US')} characters — full result kept`);
    if (!expected.test(said)) throw new Error(`the card says "${said}"`);
    await page.screenshot({ path: '.test-artifacts/screenshots/results-card.png' });
    await openWholeFromCard(page);
  });

  t.test('after a window reload the card still opens the whole result, and the model reads it back with read_result', async ({ page, scripted, scriptedModule }) => {
    const { reply, text, toolUse } = scriptedModule;
    await page.reload();
    await page.locator('.monaco-workbench').waitFor();
    await page.locator(STATUS).waitFor({ state: 'visible', timeout: 30_000 });
    await runCommand(page, 'View: Close All Editors');
    await openChat(page);
    await echoCard(page).locator('.kept-note').waitFor({ timeout: 30_000 });
    await openWholeFromCard(page);
    await openChat(page);
    scripted.enqueue(reply(toolUse('toolu_read_back', 'read_result', { ref: 'r1', grep: NEEDLE })), reply(text('It is on line 1,101.')));
    await send(page, 'Which row was disputed?');
    await chatFrame(page).getByText('It is on line 1,101.').waitFor();
    const [found] = toolResults(scripted.requests.at(-1)?.body);
    if (!(found ?? '').includes(`\n${LINE}: row ${LINE}: ${NEEDLE} disputed\n`)) throw new Error(`read_result did not find the line after the reload: ${String(found).slice(0, 400)}`);
    await page.screenshot({ path: '.test-artifacts/screenshots/results-after-reload.png' });
  });
}
