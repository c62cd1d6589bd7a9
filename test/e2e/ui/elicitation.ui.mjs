// A server that asks the user something while its tool runs (MCP `elicitation/create`), and one that
// reports progress, in the real workbench against test/fixtures/mcp/elicit-server.mjs, configured in
// User settings.json with its tools on and running unattended. The chat shows the question as a
// form above the message box (defaults filled in, the server's markup shown as text); Accept sends
// only a valid answer, each problem under its field; the tool's result reaches the card and the
// model. Decline answers "declined"; a countdown's progress shows on its card while it runs; Stop
// while the form waits takes the form away and ends the turn stopped.
// The steps share one window, in file order. ctx = { page, userSettingsFile, scripted, scriptedModule }.
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { STATUS, chatFrame, chatWindow, ensureApiKey, openChat, openSidebar, runCommand, send, until, writeSetting } from './helpers.mjs';
import { treeRow } from './tree.mjs';

const FIXTURE = resolve(import.meta.dirname, '..', '..', 'fixtures', 'mcp', 'elicit-server.mjs');
const SHOTS = resolve(import.meta.dirname, '..', '..', '..', '.test-artifacts', 'screenshots');
const SERVER = 'elicit';
const ASK = `${SERVER}__ask_name`;
const COUNTDOWN = `${SERVER}__countdown`;
const ASK_MESSAGE = 'Who is asking? <b>Tell us</b> a little about yourself.';

const state = { userSettingsBefore: undefined, ready: false };

const form = (page) => chatFrame(page).locator('.approval.elicitation');
const field = (page, key) => form(page).locator(`[data-key="${key}"]`);
const errorOf = (page, key) => form(page).locator('.elicitation-field').filter({ has: chatFrame(page).locator(`[data-key="${key}"]`) }).locator('.elicitation-error');
const card = (page, name) => chatFrame(page).locator('.tool-card').filter({ hasText: name }).last();

/** The text of every tool_result in a request's latest user message. */
function toolResults(body) {
  const last = [...(body?.messages ?? [])].reverse().find((m) => m.role === 'user');
  return (last?.content ?? []).filter((b) => b.type === 'tool_result').map((b) => (typeof b.content === 'string' ? b.content : (b.content ?? []).map((c) => c.text ?? '').join('')));
}

async function reloadWindow(page) {
  await page.reload();
  await page.locator('.monaco-workbench').waitFor();
  await page.locator(STATUS).waitFor({ state: 'visible', timeout: 30_000 });
}

async function newChat(page) {
  await openChat(page);
  await runCommand(page, 'Quiver: New Chat');
  await until('the new chat is not empty', async () => (await chatFrame(page).locator('.item').count()) === 0);
}

/** The same fields with the same values, in any order. */
const sameAnswer = (got, want) => Object.keys(got).length === Object.keys(want).length && Object.entries(want).every(([k, v]) => got[k] === v);

/** The steps after the first need the server configured and listed. */
function needReady() {
  if (!state.ready) throw new Error('not run: the fixture was not configured and listed (see the first step)');
}

/** What a finished call's card shows: its title and its body (opened). */
async function cardText(page, name) {
  const c = card(page, name);
  if (!(await c.evaluate((el) => el.open))) await c.locator('summary').click();
  return { title: (await c.locator('summary').innerText()).replace(/\s+/g, ' ').trim(), body: await c.locator('.card-body').innerText() };
}

/** Starts a turn whose model calls `tool` with `input` (then says `answer`, when given) and waits for the form. */
async function callAndWaitForForm(page, scripted, { reply, text, toolUse }, id, answer) {
  await newChat(page);
  scripted.enqueue(reply(toolUse(`toolu_${id}`, ASK, {})), ...(answer === undefined ? [] : [reply(text(answer))]));
  await send(page, `Ask me who I am (${id}).`);
  await form(page).waitFor({ timeout: 30_000 });
}

export default function (t) {
  t.test('the fixture configured in User settings.json lists ask_name and countdown under On', async ({ page, userSettingsFile }) => {
    state.userSettingsBefore = readFileSync(userSettingsFile, 'utf8');
    writeSetting(userSettingsFile, ['quiver.mcpServers', SERVER], { command: 'node', args: [FIXTURE] });
    writeSetting(userSettingsFile, ['quiver.tools', ASK], { enable: 'on', run: 'unattended' });
    writeSetting(userSettingsFile, ['quiver.tools', COUNTDOWN], { enable: 'on', run: 'unattended' });
    // code-server does not watch User settings for edits made outside it: the window is reloaded, as a user would.
    await reloadWindow(page);
    await openSidebar(page);
    for (const tool of ['ask_name', 'countdown']) await treeRow(page, ['On', SERVER, tool], { ms: 45_000 });
    await ensureApiKey(page);
    state.ready = true;
  });

  t.test('ask_name shows a form with its defaults; Accept checks each field and sends the answer, which reaches the card and the model', async ({ page, scripted, scriptedModule }) => {
    needReady();
    const before = scripted.requests.length;
    await callAndWaitForForm(page, scripted, scriptedModule, 'ask_accept', 'Nice to meet you, Ada.');
    const box = form(page);
    const title = (await box.locator('.approval-title').innerText()).replace(/\s+/g, ' ').trim();
    if (title !== `${ASK} asks (MCP server ${SERVER})`) throw new Error(`the form's title reads "${title}"`);
    const message = await box.locator('.elicitation-message').innerText();
    if (message !== ASK_MESSAGE) throw new Error(`the form's message reads "${message}", not the server's text "${ASK_MESSAGE}"`);
    if ((await box.locator('b').count()) > 0) throw new Error('the server\'s <b> became an element: its message was shown as markup');
    // The card of the call that asked says it waits for the answer.
    const waiting = chatFrame(page).locator('.tool-card .state-asking');
    if ((await waiting.count()) !== 1) throw new Error(`${await waiting.count()} tool cards say they wait for an answer, not the one that asked`);
    // The defaults, filled in.
    const shown = { name: await field(page, 'name').inputValue(), age: await field(page, 'age').inputValue(), newsletter: await field(page, 'newsletter').isChecked(), color: await field(page, 'color').inputValue() };
    if (JSON.stringify(shown) !== JSON.stringify({ name: '', age: '30', newsletter: false, color: 'green' })) throw new Error(`the form opened with ${JSON.stringify(shown)}`);
    const options = await field(page, 'color').locator('option').allInnerTexts();
    if (options.join(',') !== 'red,green,blue') throw new Error(`the color select offers ${JSON.stringify(options)}`);
    // In a short view the form scrolls inside the card: its last field can be scrolled to, and the answers stay in view.
    await field(page, 'color').scrollIntoViewIfNeeded();
    if (!(await field(page, 'color').isVisible()) || !(await box.getByRole('button', { name: 'Accept' }).isVisible())) throw new Error('the color field and the Accept button cannot both be seen');
    // The checkbox sits at the start of its row, under its label (not stretched and centred).
    const [tick, label] = [await field(page, 'newsletter').boundingBox(), await box.locator('label[for$="-newsletter"]').boundingBox()];
    if (!tick || !label || Math.abs(tick.x - label.x) > 4 || tick.width > 24) throw new Error(`the newsletter checkbox is drawn at ${JSON.stringify(tick)}, its label at ${JSON.stringify(label)}`);
    await field(page, 'name').scrollIntoViewIfNeeded();

    // Accept with the required name empty: its problem under it, and nothing sent.
    const accept = box.getByRole('button', { name: 'Accept' });
    await accept.click();
    await until(async () => `no "Name: required" under the name field (it reads "${await errorOf(page, 'name').innerText()}")`, async () => (await errorOf(page, 'name').innerText()) === 'Name: required');
    if ((await errorOf(page, 'age').innerText()) !== '') throw new Error(`the valid age shows a problem: "${await errorOf(page, 'age').innerText()}"`);
    if (await accept.isDisabled()) throw new Error('Accept with a missing name disabled the buttons: the answer went out');
    if (!(await box.isVisible())) throw new Error('the form went away on an invalid answer');
    if (scripted.requests.length - before !== 1) throw new Error(`${scripted.requests.length - before} requests while the form waits: the call did not wait for the answer`);

    // A name, and an age below the minimum.
    await field(page, 'name').fill('Ada Lovelace');
    await field(page, 'age').fill('-1');
    await accept.click();
    await until(async () => `no "Age: must be at least 0" under the age field (it reads "${await errorOf(page, 'age').innerText()}")`, async () => (await errorOf(page, 'age').innerText()) === 'Age: must be at least 0');
    if ((await errorOf(page, 'name').innerText()) !== '') throw new Error(`the name's problem stayed once it was filled in: "${await errorOf(page, 'name').innerText()}"`);
    if (await accept.isDisabled()) throw new Error('Accept with age -1 disabled the buttons: the answer went out');
    await page.screenshot({ path: `${SHOTS}/elicitation-form-error.png` });

    // Fixed: the answer goes, with the defaults left as they were.
    await field(page, 'age').fill('36');
    await accept.click();
    await box.waitFor({ state: 'detached' });
    await chatFrame(page).getByText('Nice to meet you, Ada.').waitFor({ timeout: 30_000 });
    const expected = { name: 'Ada Lovelace', age: 36, newsletter: false, color: 'green' };
    const { title: cardTitle, body } = await cardText(page, ASK);
    if (cardTitle !== `Ran ${ASK}`) throw new Error(`the card reads "${cardTitle}"`);
    const onCard = /^accepted: (\{.*\})$/m.exec(body)?.[1];
    if (onCard === undefined || !sameAnswer(JSON.parse(onCard), expected)) throw new Error(`the card's output is not "accepted:" with ${JSON.stringify(expected)}:\n${body}`);
    if (scripted.requests.length - before !== 2) throw new Error(`${scripted.requests.length - before} requests for one call and one answer`);
    const sent = toolResults(scripted.requests.at(-1)?.body);
    const toModel = /^accepted: (\{.*\})$/.exec(sent[0] ?? '')?.[1];
    if (sent.length !== 1 || toModel === undefined || !sameAnswer(JSON.parse(toModel), expected)) throw new Error(`the model got ${JSON.stringify(sent)}, not "accepted:" with ${JSON.stringify(expected)}`);
  });

  t.test('Decline answers the server "declined": the card and the model get it', async ({ page, scripted, scriptedModule }) => {
    needReady();
    await callAndWaitForForm(page, scripted, scriptedModule, 'ask_decline', 'You declined; fine.');
    await form(page).getByRole('button', { name: 'Decline' }).click();
    await form(page).waitFor({ state: 'detached' });
    await chatFrame(page).getByText('You declined; fine.').waitFor({ timeout: 30_000 });
    const { body } = await cardText(page, ASK);
    if (!/\bdeclined\b/.test(body) || body.includes('accepted:')) throw new Error(`the card's output is not "declined":\n${body}`);
    const sent = toolResults(scripted.requests.at(-1)?.body);
    if (sent.length !== 1 || sent[0] !== 'declined') throw new Error(`the model got ${JSON.stringify(sent)}, not "declined"`);
  });

  t.test('countdown\'s progress shows on its card while it runs ("N of 5 · step N"), then it is done', async ({ page, scripted, scriptedModule }) => {
    needReady();
    const { reply, text, toolUse } = scriptedModule;
    await newChat(page);
    // Every text the progress note takes, as the page draws it (a poll could miss a short-lived one).
    const frame = await chatWindow(page);
    await frame.evaluate(() => {
      const seen = [];
      window.__quiverProgressSeen = seen;
      const look = () => {
        for (const el of document.querySelectorAll('.tool-card .tool-progress')) if (seen.at(-1) !== el.textContent) seen.push(el.textContent);
      };
      window.__quiverProgressObserver?.disconnect();
      window.__quiverProgressObserver = new window.MutationObserver(look);
      window.__quiverProgressObserver.observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    scripted.enqueue(reply(toolUse('toolu_countdown', COUNTDOWN, { steps: 5 })), reply(text('The countdown is over.')));
    await send(page, 'Count down five steps.');
    const progress = card(page, COUNTDOWN).locator('.tool-progress');
    await until(async () => `the running countdown's card shows no "of 5" progress (it reads "${await card(page, COUNTDOWN).locator('summary').innerText().catch(() => 'no card')}")`, async () => / of 5 · step \d$/.test(await progress.innerText({ timeout: 1_000 })), 30_000);
    await chatFrame(page).getByText('The countdown is over.').waitFor({ timeout: 30_000 });
    const seen = await frame.evaluate(() => {
      window.__quiverProgressObserver?.disconnect();
      return window.__quiverProgressSeen;
    });
    const wrong = seen.filter((s) => !/^[1-5] of 5 · step [1-5]$/.test(s));
    if (wrong.length > 0) throw new Error(`the progress note read ${JSON.stringify(wrong)}`);
    if (new Set(seen).size < 2) throw new Error(`the progress note did not change while the countdown ran: ${JSON.stringify(seen)}`);
    const steps = seen.map((s) => Number(s[0]));
    if (steps.some((n, i) => i > 0 && n < steps[i - 1])) throw new Error(`the progress went backwards: ${JSON.stringify(seen)}`);
    const { title, body } = await cardText(page, COUNTDOWN);
    if (title !== `Ran ${COUNTDOWN}`) throw new Error(`the finished countdown's card reads "${title}"`);
    if ((await progress.count()) > 0) throw new Error('the finished card still shows its progress');
    if (!/\bdone\b/.test(body)) throw new Error(`the countdown's output is not "done":\n${body}`);
    const sent = toolResults(scripted.requests.at(-1)?.body);
    if (sent[0] !== 'done') throw new Error(`the model got ${JSON.stringify(sent)}, not "done"`);
    console.log(`      [elicitation] the countdown's card read ${seen.map((s) => `"${s}"`).join(', ')}`);
  });

  t.test('Stop while the form waits takes the form away and ends the turn stopped; then User settings are put back', async ({ page, scripted, scriptedModule, userSettingsFile }) => {
    try {
      needReady();
      const before = scripted.requests.length;
      // No reply after the call: a stopped turn asks the model nothing more.
      await callAndWaitForForm(page, scripted, scriptedModule, 'ask_stop');
      await chatFrame(page).locator('button.stop').click();
      await form(page).waitFor({ state: 'detached' });
      await chatFrame(page).locator('.turn-summary.reason-cancelled').waitFor();
      const { title } = await cardText(page, ASK);
      // The call had started (its server was asking): it may have had effects, so it is not "Did not run" (issue 30).
      if (!/^Ran\s*elicit__ask_name\s*Stopped while running$/.test(title)) throw new Error(`the stopped call's card reads "${title}"`);
      await chatFrame(page).getByRole('textbox', { name: 'Message' }).waitFor();
      if (await chatFrame(page).locator('button.stop').isVisible()) throw new Error('Stop still shows: the turn did not end');
      if (scripted.requests.length - before !== 1) throw new Error(`${scripted.requests.length - before} requests for a turn stopped at its first call`);
    } finally {
      if (state.userSettingsBefore !== undefined) writeFileSync(userSettingsFile, state.userSettingsBefore);
    }
  });
}
