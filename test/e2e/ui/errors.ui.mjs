// The chat when things go wrong, in the real workbench against the scripted Messages API: a
// refused message never rides along with the next one, error notices never push the message
// box out of view, calls that never ran say so, a failed message says why by cause, and a bad value
// in settings.json is reported. ctx = { page, scripted, scriptedModule, userSettingsFile }.
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { STATUS, chatFrame, chatWindow, ensureApiKey, openChat, runCommand, send, until, writeSetting } from './helpers.mjs';
import { treeRow } from './tree.mjs';

const userTexts = (body) => body.messages.filter((m) => m.role === 'user').flatMap((m) => m.content.filter((b) => b.type === 'text').map((b) => b.text));

async function newChat(page) {
  await runCommand(page, 'Quiver: New Chat');
  await until('the new chat is not empty', async () => (await chatFrame(page).locator('.item').count()) === 0);
}

export default function (t) {
  t.test('after a 401 the next message gets a normal reply, sent alone; Retry sends the refused one again', async ({ page, scripted, scriptedModule }) => {
    const { apiError, reply, text } = scriptedModule;
    await ensureApiKey(page);
    await newChat(page);
    const chat = chatFrame(page);
    scripted.enqueue(apiError(401, 'authentication_error', 'invalid x-api-key'));
    await send(page, 'first, refused');
    await chat.locator('.item.user.failed').filter({ hasText: 'first, refused' }).getByText('Not sent: the API refused the key (401).').waitFor();
    scripted.enqueue(reply(text('Hello again.')));
    const before = scripted.requests.length;
    await send(page, 'second message');
    await chat.getByText('Hello again.').waitFor();
    const sent = scripted.requests[before].body;
    if (JSON.stringify(userTexts(sent)) !== JSON.stringify(['second message'])) throw new Error(`the refused message rode along: ${JSON.stringify(userTexts(sent))}`);
    scripted.enqueue(reply(text('Now it went through.')));
    await chat.locator('.item.user.failed').getByRole('button', { name: 'Retry' }).click();
    await chat.getByText('Now it went through.').waitFor();
    const retried = userTexts(scripted.requests.at(-1).body);
    if (JSON.stringify(retried) !== JSON.stringify(['second message', 'first, refused'])) throw new Error(`Retry sent ${JSON.stringify(retried)}`);
    await until('the failed copy is still shown after Retry', async () => (await chat.locator('.item.user.failed').count()) === 0);
  });

  t.test('three error notices in a short chat view leave the message box in view; a successful turn clears them', async ({ page, scriptedModule, scripted }) => {
    const { reply, text } = scriptedModule;
    await page.setViewportSize({ width: 1100, height: 560 });
    await openChat(page);
    const chat = chatFrame(page);
    for (const bad of ['/set nothing', '/set tools.x.enable=maybe', '/set =']) await send(page, bad);
    await until('three error notices did not appear', async () => (await chat.locator('.banner').count()) === 3);
    const win = await chatWindow(page);
    const layout = await win.evaluate(() => {
      const box = (s) => document.querySelector(s)?.getBoundingClientRect();
      return { height: window.innerHeight, send: box('button.send')?.bottom ?? Infinity, transcript: box('.transcript')?.height ?? 0, banners: box('.banners')?.height ?? 0 };
    });
    await page.screenshot({ path: '.test-artifacts/screenshots/chat-after-three-errors.png' });
    if (layout.send > layout.height) throw new Error(`the send button left the view: ${JSON.stringify(layout)}`);
    if (layout.transcript < 40) throw new Error(`the transcript shrank to ${layout.transcript}px: ${JSON.stringify(layout)}`);
    scripted.enqueue(reply(text('All good.')));
    await send(page, 'hello');
    await chat.getByText('All good.').waitFor();
    await until('the notices outlived the successful turn', async () => (await chat.locator('.banner').count()) === 0);
  });

  t.test('a denied call reads "Did not run … Denied", never "Ran … Failed"', async ({ page, scripted, scriptedModule }) => {
    const { reply, text, toolUse } = scriptedModule;
    // A message sent while its server is still starting goes without that server's tools: wait for echo to be listed.
    await treeRow(page, ['On', 'everything', 'echo'], { ms: 45_000 });
    await openChat(page);
    await newChat(page);
    const chat = chatFrame(page);
    scripted.enqueue(reply(toolUse('toolu_denied_1', 'everything__echo', { message: 'hi' })), reply(text('Understood, I will not.')));
    await send(page, 'Echo hi.');
    await chat.getByRole('button', { name: 'Deny' }).click();
    await chat.getByText('Understood, I will not.').waitFor();
    const card = chat.locator('.tool-card').filter({ hasText: 'everything__echo' }).first();
    const title = (await card.locator('summary').innerText()).replace(/\s+/g, ' ');
    if (!/Did not run everything__echo Denied/.test(title) || /Ran|Failed/.test(title)) throw new Error(`the card reads "${title}"`);
  });

  t.test('a bad value written in User settings.json shows one notice naming it; an invalid base URL leaves the message "Not sent" with why', async ({ page, scripted, userSettingsFile }) => {
    await page.setViewportSize({ width: 1400, height: 900 }); // back from the short view above
    await withUserSettings(page, userSettingsFile, { 'quiver.search.maxLoadTokens': -5, 'quiver.anthropic.baseUrl': 'localhost:37783' }, async () => {
      await ensureApiKey(page);
      const chat = chatFrame(page);
      const budget = chat.locator('.banner').filter({ hasText: 'quiver.search.maxLoadTokens: -5 is not valid' }).filter({ hasText: 'Using 4000' });
      await budget.waitFor();
      await chat.locator('.banner').filter({ hasText: 'quiver.anthropic.baseUrl: "localhost:37783" is not valid' }).filter({ hasText: 'like http://localhost:8080' }).waitFor();
      const before = scripted.requests.length;
      await send(page, 'this goes nowhere');
      await chat.locator('.item.user.failed').filter({ hasText: 'this goes nowhere' }).getByText('Not sent: quiver.anthropic.baseUrl is not a valid URL.').waitFor();
      await page.screenshot({ path: '.test-artifacts/screenshots/bad-settings-notices.png' });
      if (scripted.requests.length !== before) throw new Error('a request went out with an invalid base URL');
      // Reading the settings again (the message read them) reports nothing new.
      if ((await budget.count()) !== 1) throw new Error(`the notice about quiver.search.maxLoadTokens shows ${await budget.count()} times`);
    });
  });

  t.test('an unreachable base URL: the message is "Not sent: could not reach" that URL, not "refused"', async ({ page, userSettingsFile }) => {
    const port = await closedPort();
    await withUserSettings(page, userSettingsFile, { 'quiver.anthropic.baseUrl': `http://127.0.0.1:${port}` }, async () => {
      await ensureApiKey(page);
      const chat = chatFrame(page);
      await send(page, 'anyone there?');
      const note = chat.locator('.item.user.failed').filter({ hasText: 'anyone there?' }).locator('.failed-note');
      await note.waitFor({ timeout: 30_000 }); // the SDK retries a connection twice first
      await page.screenshot({ path: '.test-artifacts/screenshots/unreachable-not-sent.png' });
      const text = await note.innerText();
      if (!text.startsWith(`Not sent: could not reach http://127.0.0.1:${port} (connection refused).`) || /refused it/.test(text)) throw new Error(`the failed message reads "${text}"`);
    });
  });
}

/** A port nothing listens on. */
function closedPort() {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    }).on('error', reject);
  });
}

/**
 * Runs `body` with `values` written in User settings.json, as a user writes them, then puts the
 * file back. code-server does not watch User settings for edits made outside it: the window is
 * reloaded after each write, as a user would.
 */
async function withUserSettings(page, file, values, body) {
  const original = readFileSync(file, 'utf8');
  // A reload made while the last one's extension host is still coming up can leave the window
  // without the extension: each waits until Quiver is up (its status bar item) before going on.
  const reload = async () => {
    await page.reload();
    await page.locator('.monaco-workbench').waitFor();
    await page.locator(STATUS).waitFor({ state: 'visible', timeout: 30_000 });
  };
  try {
    for (const [key, value] of Object.entries(values)) writeSetting(file, [key], value);
    await reload();
    await body();
  } finally {
    writeFileSync(file, original);
    await reload();
  }
}
