// The contributed keybindings: Ctrl+Alt+Q focuses the chat's message box from anywhere, and
// Ctrl+Alt+N starts a new chat while the chat is visible. ctx = { page, scripted, scriptedModule }.
import { chatFrame, ensureApiKey, send, until } from './helpers.mjs';

export default function (t) {
  t.test('Ctrl+Alt+Q focuses the message box; Ctrl+Alt+N starts a new chat', async ({ page, scripted, scriptedModule }) => {
    const { reply, text } = scriptedModule;
    await ensureApiKey(page);
    scripted.enqueue(reply(text('Noted.')));
    await send(page, 'remember this chat');
    await chatFrame(page).getByText('Noted.').waitFor();
    await page.locator('.monaco-workbench .part.editor').click({ position: { x: 200, y: 200 } });
    await page.keyboard.press('Control+Alt+KeyQ');
    await until('Ctrl+Alt+Q did not focus the message box', () => chatFrame(page).getByRole('textbox', { name: 'Message' }).evaluate((el) => document.hasFocus() && el === document.activeElement));
    await page.keyboard.press('Control+Alt+KeyN');
    await until('Ctrl+Alt+N did not start a new chat', async () => (await chatFrame(page).locator('.item').count()) === 0);
  });
}
