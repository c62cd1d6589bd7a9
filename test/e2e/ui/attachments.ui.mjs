// Attachments in the real editor: select lines, Add Selection to Chat (Ctrl+Alt+A), and the
// scripted Messages API records a request holding the path, the lines and the text; #file
// completion attaches a workspace file; a binary file is refused with a banner.
// ctx = { page, workspace, scripted, scriptedModule }.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chatFrame, ensureApiKey, openChat, send, setApiKey, until } from './helpers.mjs';
import { contextMenu } from './tree.mjs';

const MATH = 'function add(a, b) {\n  return a + b;\n}\n\nexport const twice = (x) => add(x, x);\n';

/** Opens a workspace file through Quick Open, with the cursor in its editor. */
async function openFile(page, name) {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.fill(name);
  await page.locator('.quick-input-widget .monaco-list-row').filter({ hasText: name }).first().waitFor();
  await input.press('Enter');
  await page.locator(`.tabs-container .tab.active:has-text("${name}")`).waitFor();
  await page.locator('.monaco-editor .view-lines').first().click();
}

/** Selects whole lines `from`..`to` of the active editor with the keyboard, as a user does. */
async function selectLines(page, from, to) {
  await page.keyboard.press('Control+Home');
  for (let line = 1; line < from; line++) await page.keyboard.press('ArrowDown');
  for (let line = from; line <= to; line++) await page.keyboard.press('Shift+ArrowDown');
}

/**
 * Runs `fn` with an API key stored, and removes the key again when there was none before: the
 * secret store outlives this file's workbench, and later files start without a key.
 */
async function withApiKey(page, fn) {
  await openChat(page);
  const hadKey = !(await chatFrame(page).locator('.api-key-notice').isVisible());
  await ensureApiKey(page);
  try {
    await fn();
  } finally {
    if (!hadKey) {
      await setApiKey(page, '');
      await chatFrame(page).locator('.api-key-notice').waitFor({ state: 'visible' });
    }
  }
}

/** Every text block of the last user message of a recorded request, joined. */
const lastUserText = (body) => ((body?.messages ?? []).filter((m) => m.role === 'user').at(-1)?.content ?? []).map((b) => b.text ?? '').join('\n---\n');

export default function (t) {
  t.test('Add Selection to Chat puts a chip above the message box, and the request holds the path, the lines and the text', async ({ page, workspace, scripted, scriptedModule }) => {
    mkdirSync(join(workspace, 'src'), { recursive: true });
    writeFileSync(join(workspace, 'src', 'math.js'), MATH);
    await withApiKey(page, async () => {
      const chat = chatFrame(page);
      await openFile(page, 'math.js');
      await selectLines(page, 1, 3);
      await page.keyboard.press('Control+Alt+KeyA');
      const chip = chat.locator('.composer .attachment-chip');
      await until(async () => `no chip for the selection above the message box: ${await chat.locator('.composer').innerText()}`, async () => /math\.js:1-3/.test((await chip.first().textContent()) ?? ''));
      const { reply, text } = scriptedModule;
      scripted.enqueue(reply(text('It adds two numbers.')));
      const before = scripted.requests.length;
      await send(page, 'what does this do?');
      await chat.getByText('It adds two numbers.').waitFor();
      const sent = lastUserText(scripted.requests[before]?.body);
      for (const expected of ['Selection from src/math.js, lines 1-3 (javascript):', 'function add(a, b) {\n  return a + b;\n}', 'what does this do?']) {
        if (!sent.includes(expected)) throw new Error(`the request does not hold ${JSON.stringify(expected)}: ${sent.slice(0, 500)}`);
      }
      if (sent.includes('twice')) throw new Error('lines outside the selection were sent');
      await until('the chip did not leave the message box after sending', async () => (await chip.count()) === 0);
      await chat.locator('.item.user .attachment-chip').filter({ hasText: 'math.js:1-3' }).waitFor();
    });
  });

  t.test('#selection typed in the message attaches the editor\'s selection when the message is sent', async ({ page, scripted, scriptedModule }) => {
    await withApiKey(page, async () => {
      const chat = chatFrame(page);
      await openFile(page, 'math.js');
      await selectLines(page, 5, 5);
      const { reply, text } = scriptedModule;
      scripted.enqueue(reply(text('It doubles x.')));
      const before = scripted.requests.length;
      await send(page, 'what does #selection do?');
      await chat.getByText('It doubles x.').waitFor();
      const sent = lastUserText(scripted.requests[before]?.body);
      if (!sent.includes('Selection from src/math.js, line 5 (javascript):') || !sent.includes('export const twice = (x) => add(x, x);')) throw new Error(`the request does not hold the selection: ${sent.slice(0, 500)}`);
      if (sent.includes('function add')) throw new Error('lines outside the selection were sent');
    });
  });

  t.test('#file: completes workspace files fuzzily, and the chosen file is attached when the message is sent', async ({ page, scripted, scriptedModule }) => {
    await withApiKey(page, async () => {
      const chat = chatFrame(page);
      const box = chat.getByRole('textbox', { name: 'Message' });
      await box.fill('');
      await box.pressSequentially('explain #file:mth');
      await chat.locator('.completion-item').filter({ hasText: 'src/math.js' }).first().waitFor();
      await box.press('Tab');
      await until(async () => `the completion did not insert the path: ${await box.inputValue()}`, async () => (await box.inputValue()) === 'explain #file:src/math.js ');
      await box.pressSequentially('briefly');
      const { reply, text } = scriptedModule;
      scripted.enqueue(reply(text('A small math module.')));
      const before = scripted.requests.length;
      await box.press('Enter');
      await chat.getByText('A small math module.').waitFor();
      const sent = lastUserText(scripted.requests[before]?.body);
      if (!sent.includes('File src/math.js (javascript, 5 lines):') || !sent.includes('export const twice')) throw new Error(`the request does not hold the file: ${sent.slice(0, 500)}`);
    });
  });

  t.test('a binary file is refused with a banner naming it, and the message stays in the box unsent', async ({ page, workspace, scripted }) => {
    writeFileSync(join(workspace, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]));
    await withApiKey(page, async () => {
      const chat = chatFrame(page);
      const before = scripted.requests.length;
      await send(page, 'what is in #file:logo.png');
      await chat.locator('.banner').filter({ hasText: 'logo.png was not attached: it is a binary file' }).waitFor();
      const box = chat.getByRole('textbox', { name: 'Message' });
      await until(async () => `the message did not come back to the box: ${await box.inputValue()}`, async () => (await box.inputValue()) === 'what is in #file:logo.png');
      if (scripted.requests.length !== before) throw new Error('a request was sent although the attachment was refused');
      await box.fill('');
    });
  });

  t.test('Add File to Chat from the Explorer: a chip that opens the file when clicked, and goes with its remove button', async ({ page }) => {
    await page.locator('.activitybar a.action-label[aria-label^="Explorer"]').click();
    const row = page.locator('.explorer-folders-view .monaco-list-row').filter({ hasText: 'notes.txt' });
    await row.waitFor();
    await contextMenu(page, row, 'Add File to Chat');
    const chat = chatFrame(page);
    const chip = chat.locator('.composer .attachment-chip').filter({ hasText: 'notes.txt' });
    await chip.waitFor();
    await chip.locator('.chip-open').click();
    await page.locator('.tabs-container .tab.active:has-text("notes.txt")').waitFor();
    await chip.getByRole('button', { name: /^Remove notes\.txt/ }).click();
    await until('the remove button left the chip in place', async () => (await chip.count()) === 0);
  });
}
