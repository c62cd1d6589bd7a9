// OAuth sign-in to a remote MCP server in the real workbench, against test/fixtures/mcp/oauth-server.mjs
// (its own authorization server, with a consent page a person clicks): a server that answers 401
// waits as "Sign in required" (never "failed"), Sign In opens the authorization page in a new
// browser tab, Allow there lists its tools; a call runs signed in; after a window reload it runs
// on the stored tokens with no page; an expired token is refreshed on the next call with no page;
// a revoked one makes the call ask to sign in again; Sign Out puts it back to "Sign in required".
// The steps share one window and one fixture, in file order. ctx = { page, settingsFile, userSettingsFile, scripted, scriptedModule }.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { STATUS, chatFrame, ensureApiKey, openChat, openSidebar, runCommand, send, until, writeSetting } from './helpers.mjs';
import { contextMenu, readTree, rowIn, treeRow } from './tree.mjs';

const FIXTURE = resolve(import.meta.dirname, '..', '..', 'fixtures', 'mcp', 'oauth-server.mjs');
const SHOTS = '.test-artifacts/screenshots';
const CONSENT_TITLE = 'Sign in to OAuth Fixture';

/** What the steps share: the fixture, the pages the workbench opened, the User settings as they were. */
const state = { signedIn: false, authorizePage: undefined, fixture: undefined, origin: undefined, pages: [], onPage: undefined, userSettingsBefore: undefined, redirectUri: undefined };

function startFixture() {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [FIXTURE], { env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => {
      err += chunk;
      const m = /oauth fixture listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(err);
      if (m) done({ child, origin: m[1] });
    });
    child.once('error', fail);
    child.once('exit', (code) => fail(new Error(`the OAuth fixture exited (${code}) before it listened: ${err}`)));
  });
}

function stopFixture() {
  const child = state.fixture;
  state.fixture = undefined;
  if (child && child.exitCode === null) child.kill('SIGKILL');
}
// Whatever happens to the steps, the fixture does not outlive the run.
process.once('exit', stopFixture);

const admin = async (path, method = 'POST') => {
  const r = await fetch(`${state.origin}${path}`, { method });
  if (!r.ok) throw new Error(`${method} ${path} answered ${r.status}`);
  return r.json();
};
const stats = () => admin('/admin/stats', 'GET');

const WAITING = ['Servers not running', 'secure'];
const SIGN_IN_REQUIRED = /Sign in required/;

/** What the Tools view says about "secure" (the tree as read), to fail with. */
function secureRows(rows) {
  const texts = rows.filter((r) => r.label === 'secure').map((r) => JSON.stringify(r.text));
  return texts.length === 0 ? 'no row for "secure"' : texts.join(', ');
}

/**
 * Waits until "secure" waits for sign-in in the Tools view (under "Servers not running", which is
 * opened again should it have closed) and returns its row, scrolled to. Should "secure" ever read
 * "failed" on the way, the wait fails with that.
 */
async function untilSignInRequired(page, why) {
  let failed;
  let rows = [];
  await until(() => failed ?? `${why}: "secure" is not shown as "Sign in required" (${secureRows(rows)})`, async () => {
    rows = await readTree(page);
    for (const r of rows) if (r.label === 'secure' && /failed/i.test(r.text)) failed = `"secure" reads "${r.text}"`;
    if (failed) throw new Error(failed);
    if (rowIn(rows, [WAITING[0]])?.expanded === 'false') await (await treeRow(page, [WAITING[0]])).click();
    return SIGN_IN_REQUIRED.test(rowIn(rows, WAITING)?.text ?? '');
  }, 45_000);
  return treeRow(page, WAITING, { hasText: SIGN_IN_REQUIRED });
}

/** Waits for "secure" under On and its whoami tool listed under it. */
const untilToolsListed = (page) => treeRow(page, ['On', 'secure', 'whoami'], { ms: 45_000 });

/** The later steps build on the first sign-in. */
function needSignIn() {
  if (!state.signedIn) throw new Error('not run: the first sign-in did not complete (see the first step)');
}

/** Waits for the next page the workbench opens (a new tab) and returns it. */
async function nextPage(before, what) {
  await until(`${what}: no new browser tab opened`, () => state.pages.length > before, 30_000);
  return state.pages[before];
}

/** Where a tab is and what it says, to fail with. */
async function tabShows(popup) {
  const body = await popup.locator('body').innerText({ timeout: 2_000 }).catch(() => '?');
  return `${popup.url()} titled "${await popup.title().catch(() => '?')}", reading "${body.replace(/\s+/g, ' ').slice(0, 200)}"`;
}

/** Clicks Allow on the authorization page and waits for the loopback listener's "Signed in" page. */
async function allowIn(popup) {
  await popup.waitForLoadState();
  state.authorizePage = `${new URL(popup.url()).origin}${new URL(popup.url()).pathname}`;
  state.redirectUri = new URL(popup.url()).searchParams.get('redirect_uri');
  await until(async () => `the new tab is not the consent page: ${await tabShows(popup)}`, async () => (await popup.title()) === CONSENT_TITLE, 20_000);
  await popup.locator('#allow').click();
  await until(async () => `after Allow the tab did not reach "Signed in": ${await tabShows(popup)}`, async () => (await popup.title()) === 'Signed in', 20_000);
  const landed = popup.url();
  await popup.close();
  return landed;
}

/** The inline Sign In action of the row waiting for sign-in, as a user clicks it. */
async function clickSignInAction(page) {
  await until('the Sign In action of "secure" could not be clicked', async () => {
    const waiting = await treeRow(page, WAITING, { hasText: SIGN_IN_REQUIRED, ms: 10_000 });
    await waiting.hover();
    await waiting.locator('.actions .action-label[aria-label="Sign In"]').click({ timeout: 2_000 });
    return true;
  });
}

/** Picks `label` in the quick pick a command opened. */
async function pickInQuickInput(page, label) {
  const input = page.locator('.quick-input-widget input');
  await page.locator('.quick-input-widget .monaco-list-row').filter({ hasText: label }).first().waitFor();
  await input.fill(label);
  await input.press('Enter');
}

async function newChat(page) {
  await runCommand(page, 'Quiver: New Chat');
  await until('the new chat is not empty', async () => (await chatFrame(page).locator('.item').count()) === 0);
}

/** The text of every tool_result in a request's latest user message. */
function toolResults(body) {
  const last = [...(body?.messages ?? [])].reverse().find((m) => m.role === 'user');
  return (last?.content ?? []).filter((b) => b.type === 'tool_result').map((b) => (typeof b.content === 'string' ? b.content : (b.content ?? []).map((c) => c.text ?? '').join('')));
}

/**
 * Has the scripted model call secure__whoami in a new chat, allows the call as a user does and
 * returns what the card and the model got. `during` runs while the call is under way (a sign-in).
 */
async function callWhoami(page, scripted, { reply, text, toolUse }, id, during) {
  await openChat(page);
  await newChat(page);
  const chat = chatFrame(page);
  const answer = `whoami ${id} came back.`;
  scripted.enqueue(reply(toolUse(`toolu_whoami_${id}`, 'secure__whoami', {})), reply(text(answer)));
  await send(page, `Who am I on secure? (${id})`);
  await chat.getByRole('button', { name: 'Allow once' }).click();
  await during?.();
  await chat.getByText(answer).waitFor({ timeout: 45_000 });
  const [sent] = toolResults(scripted.requests.at(-1)?.body);
  const card = chat.locator('.tool-card').filter({ hasText: 'secure__whoami' }).last();
  const title = (await card.locator('summary').innerText()).replace(/\s+/g, ' ');
  if (!(await card.evaluate((el) => el.open))) await card.locator('summary').click();
  const shown = await card.locator('.card-body').innerText();
  if (!/^Ran secure__whoami$/.test(title.trim())) throw new Error(`the card reads "${title}"`);
  if (!/client_id: \S+/.test(sent ?? '') || /undefined/.test(sent)) throw new Error(`the model got "${sent}" from whoami`);
  if (!shown.includes(sent)) throw new Error(`the card shows "${shown}", not the result "${sent}"`);
  return sent;
}

async function reloadWindow(page) {
  await page.reload();
  await page.locator('.monaco-workbench').waitFor();
  await page.locator(STATUS).waitFor({ state: 'visible', timeout: 30_000 });
}

export default function (t) {
  t.test('a server that answers 401 waits as "Sign in required", never failed; Sign In opens its page in a new tab, and Allow lists its tools', async ({ page, settingsFile, userSettingsFile }) => {
    const started = await startFixture();
    state.fixture = started.child;
    state.origin = started.origin;
    state.onPage = (p) => state.pages.push(p);
    page.context().on('page', state.onPage);
    state.userSettingsBefore = readFileSync(userSettingsFile, 'utf8');
    writeSetting(userSettingsFile, ['quiver.mcpServers'], { secure: { url: `${state.origin}/mcp` } });
    writeSetting(settingsFile, ['quiver.tools', 'secure__whoami'], { enable: 'on' });
    // code-server does not watch User settings for edits made outside it: the window is reloaded, as a user would.
    await reloadWindow(page);
    await openSidebar(page);
    const row = await untilSignInRequired(page, 'before sign-in');
    const icon = await row.locator('.codicon-error, .codicon-warning').count();
    if (icon > 0) throw new Error('the server waiting for sign-in carries an error or warning icon');
    if (state.pages.length > 0) throw new Error(`a page opened before the user asked to sign in: ${state.pages.map((p) => p.url()).join(', ')}`);
    // The one-time notice, with its action, in the Notifications Center (smoke-driver mode shows no toasts).
    await page.locator('[id="status.notifications"] a').click();
    const notice = page.locator('.notifications-center .notification-list-item').filter({ hasText: 'MCP server "secure" needs you to sign in' });
    await notice.first().waitFor();
    if ((await notice.count()) !== 1) throw new Error(`${await notice.count()} sign-in notices for one server`);
    await notice.getByRole('button', { name: 'Sign In' }).waitFor();
    await page.screenshot({ path: `${SHOTS}/signin-required.png` });
    await page.locator('[id="status.notifications"] a').click();
    await page.locator('.notifications-center').waitFor({ state: 'hidden' });
    // The chat says it too while the server waits (it shows the notice when it opens, whatever
    // became of the notification; a sign-in before the chat opens withdraws it unseen).
    await openChat(page);
    await until('the chat does not say that "secure" needs a sign-in', async () => (await chatFrame(page).locator('.banners').filter({ hasText: 'MCP server "secure" needs you to sign in' }).count()) > 0);
    const before = await stats();
    const pagesBefore = state.pages.length;
    await clickSignInAction(page);
    const popup = await nextPage(pagesBefore, 'Sign In');
    const landed = await allowIn(popup);
    console.log(`      [signin] fixture ${state.origin}; the authorization page opened at ${state.authorizePage}; redirect_uri ${state.redirectUri}; the tab landed on ${landed.replace(/\?.*/, '?…')}`);
    await untilToolsListed(page);
    const after = await stats();
    if (after.authorizations !== before.authorizations + 1 || after.codeExchanges !== before.codeExchanges + 1) {
      throw new Error(`one sign-in made ${after.authorizations - before.authorizations} authorizations and ${after.codeExchanges - before.codeExchanges} code exchanges`);
    }
    if ((await readTree(page)).some((r) => r.label === 'secure' && SIGN_IN_REQUIRED.test(r.text))) throw new Error('"secure" still reads "Sign in required" after signing in');
    if (state.pages.length !== pagesBefore + 1) throw new Error(`${state.pages.length - pagesBefore} tabs opened for one sign-in`);
    await page.screenshot({ path: `${SHOTS}/signin-signed-in.png` });
    state.signedIn = true;
  });

  t.test('a call of its tool through the chat runs signed in and shows its result', async ({ page, scripted, scriptedModule }) => {
    needSignIn();
    await ensureApiKey(page);
    const before = await stats();
    const pages = state.pages.length;
    await callWhoami(page, scripted, scriptedModule, 'first');
    const after = await stats();
    if (after.authorizations !== before.authorizations || state.pages.length !== pages) throw new Error('the call asked for a sign-in');
  });

  t.test('after a window reload the server runs on the stored sign-in: no page, no new authorization', async ({ page, scripted, scriptedModule }) => {
    needSignIn();
    const before = await stats();
    const pages = state.pages.length;
    await reloadWindow(page);
    await openSidebar(page);
    await untilToolsListed(page);
    const after = await stats();
    if (after.mcpRequests <= before.mcpRequests) throw new Error('the reloaded window listed the tools without reaching the server');
    if (after.authorizations !== before.authorizations || after.registrations !== before.registrations) {
      throw new Error(`the reload signed in again: ${JSON.stringify({ before, after })}`);
    }
    if (/not started/.test(rowIn(await readTree(page), ['On', 'secure'])?.text ?? '')) throw new Error('"secure" is idle on its cache, not running');
    await callWhoami(page, scripted, scriptedModule, 'after-reload');
    const end = await stats();
    if (end.authorizations !== before.authorizations || end.refreshes !== before.refreshes) throw new Error(`the call after the reload signed in or refreshed: ${JSON.stringify(end)}`);
    if (state.pages.length !== pages) throw new Error(`a page opened after the reload: ${state.pages.slice(pages).map((p) => p.url()).join(', ')}`);
  });

  t.test('an expired access token is refreshed on the next call: one refresh, no page', async ({ page, scripted, scriptedModule }) => {
    needSignIn();
    await admin('/admin/expire');
    const before = await stats();
    const pages = state.pages.length;
    await callWhoami(page, scripted, scriptedModule, 'expired');
    const after = await stats();
    if (after.refreshes !== before.refreshes + 1) throw new Error(`${after.refreshes - before.refreshes} refreshes for one expired token`);
    if (after.refreshReuse !== before.refreshReuse) throw new Error('a used refresh token was presented again');
    if (after.authorizations !== before.authorizations || state.pages.length !== pages) throw new Error('the expired token led to a sign-in page');
  });

  t.test('revoked: the next call asks to sign in first, and after Allow in the new tab it runs', async ({ page, scripted, scriptedModule }) => {
    needSignIn();
    await admin('/admin/revoke');
    const before = await stats();
    const pages = state.pages.length;
    await callWhoami(page, scripted, scriptedModule, 'revoked', async () => {
      const dialog = page.locator('.monaco-dialog-box').filter({ hasText: 'MCP server "secure" needs you to sign in before its tool can run' });
      await dialog.waitFor({ timeout: 30_000 });
      await page.screenshot({ path: `${SHOTS}/signin-asked-by-call.png` });
      if (state.pages.length !== pages) throw new Error('the sign-in page opened before the user answered the question');
      await dialog.getByRole('button', { name: 'Sign In' }).click();
      await allowIn(await nextPage(pages, 'Sign In in the question'));
    });
    const after = await stats();
    if (after.authorizations !== before.authorizations + 1) throw new Error(`${after.authorizations - before.authorizations} authorizations for one revoked sign-in`);
  });

  t.test('Sign Out from the palette: it waits for sign-in, a search names its tool behind the sign-in (model and card), the system prompt names it; after a reload it still reads "Sign in required"; Sign In lists it again', async ({ page, settingsFile, scripted, scriptedModule }) => {
    needSignIn();
    const { reply, text, toolUse } = scriptedModule;
    await openSidebar(page);
    await untilToolsListed(page);
    await runCommand(page, 'Quiver: Sign Out of MCP Server…');
    await pickInQuickInput(page, 'secure');
    await untilSignInRequired(page, 'after Sign Out from the palette');

    await openChat(page);
    await newChat(page);
    const chat = chatFrame(page);
    const before = scripted.requests.length;
    scripted.enqueue(reply(toolUse('toolu_signin_search', 'search_tools', { query: 'whoami' })), reply(text('secure needs a sign-in first.')));
    await send(page, 'Who am I on secure? Find the tool.');
    await chat.getByText('secure needs a sign-in first.').waitFor();
    const system = (scripted.requests[before]?.body.system ?? []).map((b) => b.text).join('');
    if (!/## Servers waiting for sign-in\n[^\n]*\n- secure \(\d+ tools?\)/.test(system)) throw new Error(`the system prompt does not name "secure" as waiting for sign-in: ${JSON.stringify(system.slice(-600))}`);
    const answer = JSON.parse(toolResults(scripted.requests[before + 1]?.body)[0] ?? '{}');
    if (!(answer.sign_in_required ?? []).some((t) => t.name === 'secure__whoami' && t.server === 'secure')) throw new Error(`the search answer does not name secure__whoami behind the sign-in: ${JSON.stringify(answer).slice(0, 500)}`);
    if (!/Tell the user to sign in/.test(answer.note ?? '')) throw new Error(`the search answer does not say what the user must do: ${answer.note}`);
    const behind = chat.locator('.search-card').last().locator('.found-tool').filter({ hasText: 'secure__whoami' });
    await until('the search card does not show secure__whoami as "sign in required"', async () => (await behind.locator('.found-status').textContent().catch(() => '')) === 'sign in required');
    await page.screenshot({ path: `${SHOTS}/signin-search.png` });

    // Asleep on its cached catalogue after a reload (no tool of it on), it still reads "Sign in required", not "not started".
    writeSetting(settingsFile, ['quiver.tools', 'secure__whoami'], { enable: 'discoverable' });
    await reloadWindow(page);
    await openSidebar(page);
    await untilSignInRequired(page, 'after Sign Out and a reload');
    const rows = await readTree(page);
    if (rows.some((r) => r.label === 'secure' && /not started/.test(r.text))) throw new Error(`after a reload "secure" reads "not started": ${secureRows(rows)}`);

    writeSetting(settingsFile, ['quiver.tools', 'secure__whoami'], { enable: 'on' });
    // Turned on, it starts (no page: only Sign In opens one) and waits again; a Sign In clicked meanwhile would be superseded by that start.
    await page.waitForTimeout(3000);
    await untilSignInRequired(page, 'after its tool was turned on');
    const pages = state.pages.length;
    await clickSignInAction(page);
    await allowIn(await nextPage(pages, 'Sign In after the reload'));
    await untilToolsListed(page);
  });

  t.test('Sign Out on the server forgets the sign-in: it waits as "Sign in required" again; then the fixture is stopped', async ({ page, settingsFile, userSettingsFile }) => {
    try {
      needSignIn();
      await openSidebar(page);
      await untilToolsListed(page);
      await contextMenu(page, await treeRow(page, ['On', 'secure']), 'Sign Out');
      await untilSignInRequired(page, 'after Sign Out');
      if (rowIn(await readTree(page), ['On', 'secure'])) throw new Error('"secure" is still listed under On after Sign Out');
    } finally {
      if (state.onPage) page.context().off('page', state.onPage);
      for (const p of state.pages) await p.close().catch(() => undefined);
      if (state.userSettingsBefore !== undefined) writeFileSync(userSettingsFile, state.userSettingsBefore);
      writeSetting(settingsFile, ['quiver.tools', 'secure__whoami'], undefined);
      stopFixture();
    }
  });
}
