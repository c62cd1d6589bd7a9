// The chat history list in the real workbench: each row's Rename and Delete buttons are named after
// their chat, and renaming a chat leaves it where it was (the list goes by last activity, and a
// rename is not activity). ctx = { page, scripted, scriptedModule }.
import { chatFrame, ensureApiKey, runCommand, send, until } from './helpers.mjs';

const FIRST = 'The first chat of the history test';
const SECOND = 'The second chat of the history test';

async function chatWith(page, scripted, { reply, text }, message) {
  await runCommand(page, 'Quiver: New Chat');
  await until('the new chat is not empty', async () => (await chatFrame(page).locator('.item').count()) === 0);
  scripted.enqueue(reply(text(`Answer to: ${message}`)));
  await send(page, message);
  await chatFrame(page).getByText(`Answer to: ${message}`).waitFor();
  await chatFrame(page).locator('.composer .send').waitFor({ state: 'visible' });
}

const titles = async (chat) => (await chat.locator('.history-row .history-title').allTextContents()).map((s) => s.trim());

export default function (t) {
  t.test('history: Rename and Delete name their chat, and a renamed chat keeps its place in the list', async ({ page, scripted, scriptedModule }) => {
    await ensureApiKey(page);
    await chatWith(page, scripted, scriptedModule, FIRST);
    await chatWith(page, scripted, scriptedModule, SECOND);
    const chat = chatFrame(page);
    await chat.getByRole('button', { name: 'Show chats' }).click();
    await until(async () => `the history does not list the two chats, newest first: ${JSON.stringify(await titles(chat))}`, async () => {
      const listed = await titles(chat);
      return listed.indexOf(SECOND) >= 0 && listed.indexOf(SECOND) < listed.indexOf(FIRST);
    });
    const before = await titles(chat);
    // A row's actions show on hover or when the keyboard is in the row (hidden, they are not in the accessibility tree).
    await chat.locator('.history-row').filter({ hasText: FIRST }).hover();
    await chat.getByRole('button', { name: `Delete chat '${FIRST}'` }).waitFor();
    await chat.getByRole('button', { name: `Rename chat '${FIRST}'` }).click();
    const box = chat.getByRole('textbox', { name: `New title for chat '${FIRST}'` });
    await box.fill('Renamed first chat');
    await box.press('Enter');
    const expected = before.map((title) => (title === FIRST ? 'Renamed first chat' : title));
    await until(async () => `after the rename the list is ${JSON.stringify(await titles(chat))}, not ${JSON.stringify(expected)}`, async () => JSON.stringify(await titles(chat)) === JSON.stringify(expected));
    await chat.locator('.history-row').filter({ hasText: 'Renamed first chat' }).hover();
    await chat.getByRole('button', { name: "Rename chat 'Renamed first chat'" }).waitFor();
    await page.keyboard.press('Escape');
  });
}
