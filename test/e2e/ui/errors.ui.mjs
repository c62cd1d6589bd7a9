// The chat when things go wrong, in the real workbench against the scripted Messages API: a
// refused message never rides along with the next one, error notices never push the message
// box out of view, and calls that never ran say so. ctx = { page, scripted, scriptedModule }.
import { chatFrame, chatWindow, ensureApiKey, openChat, runCommand, send, until } from './helpers.mjs';

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
    await chat.locator('.item.user.failed').filter({ hasText: 'first, refused' }).getByText('Not sent').waitFor();
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
}
