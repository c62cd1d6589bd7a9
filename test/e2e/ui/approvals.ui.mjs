// Approval belongs to the user: a repository's .vscode/settings.json cannot let a tool run without
// asking, and "Always allow this tool" writes User settings, never the repository's file.
// ctx = { page, settingsFile, userSettingsFile, scripted, scriptedModule }.
import { readFileSync, writeFileSync } from 'node:fs';
import { parse } from 'jsonc-parser';
import { chatFrame, ensureApiKey, openSidebar, runCommand, send, until, writeSetting } from './helpers.mjs';
import { treeRow } from './tree.mjs';

const ECHO = ['On', 'everything', 'echo'];
const userRunOfEcho = (file) => parse(readFileSync(file, 'utf8'))?.['quiver.tools']?.['everything__echo']?.run;

export default function (t) {
  t.test('a workspace that says "run": "unattended" for every tool still gets the approval prompt', async ({ page, settingsFile, scripted, scriptedModule }) => {
    const { reply, text, toolUse } = scriptedModule;
    writeSetting(settingsFile, ['quiver.tools', '*'], { enable: 'discoverable', run: 'unattended' });
    await openSidebar(page);
    await treeRow(page, ECHO, { hasText: /workspace approval ignored/ });
    // The tree redraws as servers report in, which can take the hover (or the row) away: find the row and hover again until it shows.
    await until('the hover of echo does not say why it asks', async () => {
      const echo = await treeRow(page, ECHO, { ms: 10_000 });
      await page.mouse.move(0, 0);
      await echo.hover();
      const hover = page.locator('.monaco-hover, .workbench-hover').filter({ hasText: 'which Quiver ignores' });
      return hover.first().waitFor({ timeout: 2_000 }).then(() => true, () => false);
    }, 30_000);
    await ensureApiKey(page);
    const before = scripted.requests.length;
    scripted.enqueue(reply(toolUse('toolu_ws_echo', 'everything__echo', { message: 'from the repository' })), reply(text('Echoed after approval.')));
    await send(page, 'Echo something.');
    const chat = chatFrame(page);
    await chat.getByRole('button', { name: 'Allow once' }).waitFor();
    // The prompt takes the focus, so a keyboard user answers it where they are (layout.ui.mjs checks it is whole in view).
    await until('the approval card did not put the focus on Allow once', () => chat.getByRole('button', { name: 'Allow once' }).evaluate((b) => b === document.activeElement));
    if (scripted.requests.length - before !== 1) throw new Error('the call ran before the user answered the approval');
    await chat.getByRole('button', { name: 'Allow once' }).click();
    await chat.getByText('Echoed after approval.').waitFor();
  });

  t.test('"Always allow this tool" writes User settings and leaves the repository\'s settings file byte for byte', async ({ page, settingsFile, userSettingsFile, scripted, scriptedModule }) => {
    const { reply, text, toolUse } = scriptedModule;
    const repositoryFile = readFileSync(settingsFile);
    const userFileBefore = readFileSync(userSettingsFile);
    try {
      await alwaysAllowThenReset(page, scripted, { reply, text, toolUse }, settingsFile, userSettingsFile, repositoryFile);
    } finally {
      writeFileSync(userSettingsFile, userFileBefore); // the later test files share these User settings
    }
  });

  t.test('"Always allow" where the workspace says "ask" for the tool: it says the tool will still ask here', async ({ page, settingsFile, userSettingsFile, scripted, scriptedModule }) => {
    const { reply, text, toolUse } = scriptedModule;
    const userFileBefore = readFileSync(userSettingsFile);
    writeSetting(settingsFile, ['quiver.tools', 'everything__echo'], { enable: 'on', run: 'ask' });
    try {
      // Taken up once echo's own "ask" is its run policy: the ignored "*" no longer counts for it,
      // and its row no longer reads "workspace approval ignored".
      await openSidebar(page);
      await treeRow(page, ECHO, { hasText: /^(?!.*workspace approval ignored)/ });
      await ensureApiKey(page);
      scripted.enqueue(reply(toolUse('toolu_ask_echo', 'everything__echo', { message: 'still asks' })), reply(text('Echoed once more.')));
      await send(page, 'Echo something again.');
      await chatFrame(page).getByRole('button', { name: 'Always allow this tool' }).click();
      await chatFrame(page).getByText('Echoed once more.').waitFor();
      // The warning comes once the User settings write is read back; as a toast, or in the notification centre once the toast has gone.
      const warning = page.getByText(/everything__echo will still ask before each call/).first();
      await until('no notification says everything__echo will still ask', async () => {
        if (await warning.isVisible()) return true;
        await runCommand(page, 'Notifications: Show Notifications');
        return warning.waitFor({ timeout: 2_000 }).then(() => true, () => false);
      }, 30_000);
    } finally {
      writeFileSync(userSettingsFile, userFileBefore);
    }
  });
}

/** Always allow echo, check where it was written, then take it back with Quiver: Reset Tool Approvals…. */
async function alwaysAllowThenReset(page, scripted, { reply, text, toolUse }, settingsFile, userSettingsFile, repositoryFile) {
  await ensureApiKey(page);
  scripted.enqueue(reply(toolUse('toolu_always_echo', 'everything__echo', { message: 'always' })), reply(text('Echoed, always allowed.')));
  await send(page, 'Echo something, and do not ask again.');
  const chat = chatFrame(page);
  await chat.getByRole('button', { name: 'Always allow this tool' }).click();
  await chat.getByText('Echoed, always allowed.').waitFor();
  await until('"Always allow this tool" did not write run: "unattended" to User settings.json', () => userRunOfEcho(userSettingsFile) === 'unattended');
  if (!readFileSync(settingsFile).equals(repositoryFile)) throw new Error(`"Always allow this tool" changed the workspace's settings.json:\n${readFileSync(settingsFile, 'utf8')}`);

  // Quiver: Reset Tool Approvals… lists it (picked) and takes it back out of User settings.
  // VS Code reads the written file back a moment after it changes on disk: retry until the list has it.
  const listed = page.locator('.quick-input-widget .monaco-list-row').filter({ hasText: 'everything__echo' }).first();
  await until('Reset Tool Approvals does not list everything__echo', async () => {
    await runCommand(page, 'Quiver: Reset Tool Approvals…');
    if (await listed.waitFor({ timeout: 3_000 }).then(() => true, () => false)) return true;
    await page.keyboard.press('Escape');
    return false;
  });
  await page.locator('.quick-input-widget input').press('Enter');
  await until('Reset Tool Approvals did not remove run: "unattended" from User settings.json', () => userRunOfEcho(userSettingsFile) === undefined);
  if (!readFileSync(settingsFile).equals(repositoryFile)) throw new Error('Reset Tool Approvals changed the workspace\'s settings.json');
}
