// The editor's own tools changing files, in the real editor with the scripted model: read_file
// (unattended) gives numbered lines, and the editor's unsaved text; edit_file under "ask" shows the
// approval card with the file's row and opens the proposed diff; Accept applies and saves (the open
// editor shows it, and its Undo takes it back); Reject with a reason changes nothing and the model
// reads the reason; Undo this turn's changes restores every file of the turn, also after a window
// reload; an edit of quiver.* in .vscode/settings.json asks even when User settings let edit_file
// run unattended. ctx = { page, workspace, settingsFile, userSettingsFile, scripted, scriptedModule }.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { applyEdits, modify, parse } from 'jsonc-parser';
import { STATUS, chatFrame, ensureApiKey, openChat, openSidebar, runCommand, send, sleep, until, writeSetting } from './helpers.mjs';
import { treeRow } from './tree.mjs';

const SHOTS = join(import.meta.dirname, '..', '..', '..', '.test-artifacts', 'screenshots');

// ---- Workspace and settings ---------------------------------------------------------------

/**
 * The fixture's `"*": { "enable": "discoverable" }` covers the editor's tools too; here it is
 * narrowed to the MCP servers, so the editor's tools run by their own defaults (reads and edits
 * on, language tools and run_command discoverable). VS Code in a browser saves after a delay by
 * default; auto save is turned off, so an editor keeps unsaved text as a desktop user's would.
 * Waits until the Tools tree lists the editor under On (so the settings file has been read).
 */
export async function prepareWorkspace(page, settingsFile) {
  const settings = parse(readFileSync(settingsFile, 'utf8')) ?? {};
  const tools = settings['quiver.tools'] ?? {};
  if (settings['files.autoSave'] !== 'off') writeSetting(settingsFile, ['files.autoSave'], 'off');
  if (tools['*'] !== undefined) {
    writeSetting(settingsFile, ['quiver.tools', '*'], undefined);
    for (const server of ['everything', 'filesystem', 'memory']) writeSetting(settingsFile, ['quiver.tools', `${server}__*`], { enable: 'discoverable' });
  }
  await openSidebar(page);
  await treeRow(page, ['On', 'editor'], { ms: 30_000 });
}

export function writeWorkspaceFile(workspace, rel, text) {
  mkdirSync(dirname(join(workspace, rel)), { recursive: true });
  writeFileSync(join(workspace, rel), text);
}

export const disk = (workspace, rel) => readFileSync(join(workspace, rel), 'utf8');

export async function reloadWindow(page) {
  await page.reload();
  await page.locator('.monaco-workbench').waitFor();
  await page.locator(STATUS).waitFor({ state: 'visible', timeout: 30_000 });
}

/**
 * Replaces User settings.json with `text` in the editor, as a user edits it (Preferences: Open User
 * Settings (JSON), paste, save): the window reads it at once. (code-server does not watch the file
 * for edits made outside it; those need a window reload.)
 */
export async function editUserSettings(page, userSettingsFile, text) {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(page.url()).origin });
  await runCommand(page, 'Preferences: Open User Settings (JSON)');
  const group = page.locator('.editor-group-container').filter({ has: page.locator('.tab.active[aria-label^="settings.json"]') }).first();
  await group.locator('.editor-instance .view-lines').first().waitFor();
  await page.evaluate((s) => window.navigator.clipboard.writeText(s), text);
  await group.locator('.editor-instance .view-lines').first().click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Control+V');
  await page.keyboard.press('Control+S');
  await until('User settings.json was not saved from the editor', () => readFileSync(userSettingsFile, 'utf8') === text, 10_000);
  await runCommand(page, 'View: Close Editor');
}

// ---- The chat ---------------------------------------------------------------------------

export async function newChat(page) {
  await ensureApiKey(page);
  await runCommand(page, 'Quiver: New Chat');
  await until('the new chat is not empty', async () => (await chatFrame(page).locator('.item').count()) === 0);
  await chatFrame(page).locator('.composer .send').waitFor({ state: 'visible' });
}

/** Every tool_result of a request's latest user message: { id, text, isError }. */
export function toolResults(body) {
  const last = [...(body?.messages ?? [])].reverse().find((m) => m.role === 'user');
  return (last?.content ?? []).filter((b) => b.type === 'tool_result').map((b) => ({
    id: b.tool_use_id,
    text: typeof b.content === 'string' ? b.content : (b.content ?? []).map((c) => c.text ?? '').join(''),
    isError: b.is_error === true,
  }));
}

/** The tool_result for call `id` in the requests after `before`. */
export function resultOf(scripted, before, id) {
  for (const r of scripted.requests.slice(before)) {
    const found = toolResults(r.body).find((x) => x.id === id);
    if (found) return found;
  }
  return undefined;
}

export const approval = (page) => chatFrame(page).locator('.approval');
export const squash = (s) => s.replace(/\s+/g, ' ').trim();

/** Waits for the approval card of an edit of `label`, checks what it shows, and returns it. */
async function changeApproval(page, label, { added, removed, mustAsk = null }) {
  const card = approval(page).filter({ has: chatFrame(page).locator('.change-file', { hasText: label }) });
  await card.waitFor({ timeout: 30_000 });
  const title = squash(await card.locator('.approval-title').textContent());
  if (title !== 'Apply this change of editor__edit_file?') throw new Error(`the approval card's title reads "${title}"`);
  const row = squash(await card.locator('.change-row').innerText());
  if (row !== `${label} edited +${added} −${removed}`) throw new Error(`the card's file row reads "${row}", not "${label} edited +${added} −${removed}"`);
  const placeholder = await card.locator('.approval-reason').getAttribute('placeholder');
  if (placeholder !== 'Why reject? (optional, the model is told)') throw new Error(`the reason box says "${placeholder}"`);
  const buttons = (await card.locator('.approval-actions button').allInnerTexts()).map(squash);
  const want = mustAsk === null ? ['Accept', 'Always allow this tool', 'Reject'] : ['Accept', 'Reject'];
  if (buttons.join('|') !== want.join('|')) throw new Error(`the card offers ${JSON.stringify(buttons)}, not ${JSON.stringify(want)}`);
  const note = card.locator('.approval-must-ask');
  if (mustAsk === null && (await note.count()) > 0) throw new Error(`the card says "${await note.innerText()}" for a change under the tool's own policy`);
  if (mustAsk !== null) {
    const said = squash(await note.innerText());
    if (said !== `Asks every time: ${mustAsk}.`) throw new Error(`the card's note reads "${said}", not "Asks every time: ${mustAsk}."`);
  }
  return card;
}

// ---- The editor ----------------------------------------------------------------------------

/** An editor tab whose label is exactly `label`. */
export const tab = (page, label) => page.locator('.tabs-container .tab').filter({ has: page.locator('.monaco-icon-label-container', { hasText: exactly(label) }) });

/** A pattern matching exactly `text`. */
const exactly = (text) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);

/** Opens `rel` with Go to File, as a user does, and keeps the editor (not a preview a diff would replace). */
export async function openFile(page, rel) {
  const name = rel.split('/').pop();
  const input = page.locator('.quick-input-widget input');
  await until(`Go to File did not offer ${rel}`, async () => {
    await page.keyboard.press('F1');
    await input.fill(rel, { timeout: 5_000 });
    const row = page.locator('.quick-input-widget .monaco-list-row').filter({ hasText: name }).first();
    if (!(await row.waitFor({ timeout: 3_000 }).then(() => true, () => false))) {
      await page.keyboard.press('Escape');
      return false;
    }
    await input.press('Enter');
    return true;
  });
  await tab(page, name).first().waitFor();
  await runCommand(page, 'View: Keep Editor');
  await until(`${name} opened as a preview and was not kept`, async () => (await tab(page, name).first().evaluate((el) => el.classList.contains('preview'))) === false, 5_000).catch(() => undefined);
}

/** The editor group that shows file tab `name`, brought to the front. */
export async function showEditor(page, name) {
  await tab(page, name).first().click();
  return page.locator('.editor-group-container').filter({ has: page.locator('.tab.active .monaco-icon-label-container', { hasText: exactly(name) }) }).first();
}

/** The text the editor of file tab `name` draws (Monaco draws spaces as no-break spaces). */
export async function editorText(page, name) {
  const group = await showEditor(page, name);
  return (await group.locator('.editor-instance .view-lines').first().innerText()).replaceAll('\u00a0', ' ');
}

/** Clicks into the editor of `name` so keys go to it. */
export async function focusEditor(page, name) {
  const group = await showEditor(page, name);
  await group.locator('.editor-instance .view-lines').first().click();
}

export async function closeAllEditors(page) {
  await runCommand(page, 'View: Close All Editors');
}

// ---- The tests -----------------------------------------------------------------------------

const GREETER = 'src/greeter.ts';
const GREETER_TEXT = [
  'export function greet(name: string): string {',
  '  return `Hello, ${name}`;',
  '}',
  '',
].join('\n');

export default function (t) {
  t.test('by their defaults the editor\'s reads and edits are offered on every request; its language tools, renames and run_command wait to be found; delete_file is off', async ({ page, settingsFile, scripted, scriptedModule }) => {
    const { reply, text, toolUse } = scriptedModule;
    await prepareWorkspace(page, settingsFile);
    await newChat(page);
    const before = scripted.requests.length;
    scripted.enqueue(
      reply(toolUse('toolu_search_rename', 'search_tools', { query: 'editor__rename_file' }), toolUse('toolu_search_delete', 'search_tools', { query: 'editor__delete_file' })),
      reply(text('Hello from the scripted model.')),
    );
    await send(page, 'Hello.');
    await chatFrame(page).getByText('Hello from the scripted model.').waitFor();
    const offered = (scripted.requests[before]?.body?.tools ?? []).map((tool) => tool.name).filter((name) => name.startsWith('editor__')).sort();
    const on = ['create_file', 'edit_file', 'find_files', 'get_problems', 'list_directory', 'read_file', 'search_text'].map((n) => `editor__${n}`);
    if (offered.join(',') !== on.join(',')) throw new Error(`the first request offers the editor's tools ${JSON.stringify(offered)}, not ${JSON.stringify(on)}`);
    // A discoverable tool is found by its name; an off one is not there to find.
    const found = (id) => JSON.stringify(scripted.requests[before + 1]?.body?.messages?.at(-1)?.content?.find((b) => b.tool_use_id === id) ?? null);
    if (!found('toolu_search_rename').includes('"tool_name":"editor__rename_file"')) throw new Error(`search_tools did not load the discoverable editor__rename_file: ${found('toolu_search_rename').slice(0, 400)}`);
    if (found('toolu_search_delete').includes('editor__delete_file')) throw new Error(`search_tools found editor__delete_file, which is off by default: ${found('toolu_search_delete').slice(0, 400)}`);
  });

  t.test('read_file runs unattended with numbered lines; edit_file asks with the diff; Accept saves it to disk and the open editor, whose Undo takes it back', async ({ page, workspace, settingsFile, scripted, scriptedModule }) => {
    const { reply, text, toolUse } = scriptedModule;
    writeWorkspaceFile(workspace, GREETER, GREETER_TEXT);
    await prepareWorkspace(page, settingsFile);
    await openFile(page, GREETER);
    await newChat(page);
    const before = scripted.requests.length;
    scripted.enqueue(
      reply(text('Let me read it first.'), toolUse('toolu_read_greeter', 'editor__read_file', { path: GREETER })),
      reply(toolUse('toolu_edit_greeter', 'editor__edit_file', { path: GREETER, edits: [{ old_string: 'return `Hello, ${name}`;', new_string: 'return `Hello, ${name}!`;' }] })),
      reply(text('The greeting ends with an exclamation mark now.')),
    );
    await send(page, 'Make the greeting more excited.');
    const card = await changeApproval(page, GREETER, { added: 1, removed: 1 });

    // The read ran without asking, and the model got numbered lines.
    if (scripted.requests.length - before !== 2) throw new Error(`${scripted.requests.length - before} requests before the edit's approval (the read should have run unattended)`);
    const read = resultOf(scripted, before, 'toolu_read_greeter');
    if (!read || read.isError || !read.text.includes('     1\texport function greet(name: string): string {\n     2\t  return `Hello, ${name}`;')) throw new Error(`read_file gave the model: ${JSON.stringify(read)}`);

    // The proposed change opened as a diff, and nothing is written yet.
    await tab(page, `${GREETER} (proposed change)`).first().waitFor();
    if (disk(workspace, GREETER) !== GREETER_TEXT) throw new Error('the file changed on disk before the user accepted');
    await page.screenshot({ path: join(SHOTS, 'editorEdits-approval-card.png') });

    await card.getByRole('button', { name: 'Accept' }).click();
    await chatFrame(page).getByText('The greeting ends with an exclamation mark now.').waitFor();
    const edited = GREETER_TEXT.replace('${name}`;', '${name}!`;');
    await until(() => `the file on disk reads ${JSON.stringify(disk(workspace, GREETER))} after Accept`, () => disk(workspace, GREETER) === edited);
    const applied = resultOf(scripted, before, 'toolu_edit_greeter');
    if (!applied || applied.isError || !applied.text.startsWith(`Applied and saved: edited ${GREETER} (+1 −1).`)) throw new Error(`edit_file gave the model: ${JSON.stringify(applied)}`);

    // The call's card lists the file; its link opens what was applied; the turn's close offers Undo.
    const toolCard = chatFrame(page).locator('.tool-card').filter({ hasText: 'editor__edit_file' }).last();
    const cardRow = squash(await toolCard.locator('.change-row').innerText());
    if (cardRow !== `${GREETER} edited +1 −1`) throw new Error(`the tool card's file row reads "${cardRow}"`);
    const closing = chatFrame(page).locator('.turn-changes').last();
    await closing.waitFor();
    if (!/^Changed 1 file:/.test(squash(await closing.innerText()))) throw new Error(`the turn's close reads "${squash(await closing.innerText())}"`);
    await closing.getByRole('button', { name: 'Undo this turn\'s changes' }).waitFor();
    await toolCard.locator('.change-file', { hasText: GREETER }).click();
    await tab(page, `${GREETER} (applied)`).first().waitFor();
    await page.screenshot({ path: join(SHOTS, 'editorEdits-applied-card.png') });

    // The open editor shows the change; its own Undo takes it back.
    await until('the open editor of greeter.ts does not show the applied change', async () => (await editorText(page, 'greeter.ts')).includes('return `Hello, ${name}!`;'));
    await focusEditor(page, 'greeter.ts');
    await page.keyboard.press('Control+Z');
    await until(async () => `the editor's Undo did not take the change back: it shows ${JSON.stringify(await editorText(page, 'greeter.ts'))}`, async () => {
      const shown = await editorText(page, 'greeter.ts');
      return shown.includes('return `Hello, ${name}`;') && !shown.includes('${name}!`');
    }, 10_000);
    await focusEditor(page, 'greeter.ts');
    await page.keyboard.press('Control+S');
    await until(() => `after Undo and Save the file on disk reads ${JSON.stringify(disk(workspace, GREETER))}`, () => disk(workspace, GREETER) === GREETER_TEXT, 10_000);
    await closeAllEditors(page);
  });

  t.test('Reject with a reason changes nothing, and the model reads that it was rejected and why', async ({ page, workspace, settingsFile, scripted, scriptedModule }) => {
    const { reply, text, toolUse } = scriptedModule;
    const FILE = 'src/names.ts';
    const TEXT = 'export const userName = "ada";\n';
    const REASON = 'Keep userName, other code imports it';
    writeWorkspaceFile(workspace, FILE, TEXT);
    await prepareWorkspace(page, settingsFile);
    await newChat(page);
    const before = scripted.requests.length;
    scripted.enqueue(
      reply(toolUse('toolu_edit_reject', 'editor__edit_file', { path: FILE, edits: [{ old_string: 'userName', new_string: 'name' }] })),
      reply(text('Understood, userName stays.')),
    );
    await send(page, 'Rename userName to name.');
    const card = await changeApproval(page, FILE, { added: 1, removed: 1 });
    await card.locator('.approval-reason').fill(REASON);
    await card.getByRole('button', { name: 'Reject' }).click();
    await chatFrame(page).getByText('Understood, userName stays.').waitFor();
    if (disk(workspace, FILE) !== TEXT) throw new Error(`the rejected change was written: ${JSON.stringify(disk(workspace, FILE))}`);
    const told = resultOf(scripted, before, 'toolu_edit_reject');
    const want = `The user rejected this change (${FILE}); nothing was applied. The user said: "${REASON}"`;
    if (!told || !told.isError || !told.text.startsWith(want)) throw new Error(`the model was told ${JSON.stringify(told)}, not an error starting "${want}"`);
    const state = squash(await chatFrame(page).locator('.tool-card').filter({ hasText: 'editor__edit_file' }).last().locator('summary').innerText());
    if (!/Denied$/.test(state)) throw new Error(`the rejected call's card reads "${state}"`);
    await closeAllEditors(page);
  });

  t.test('read_file returns the editor\'s unsaved text, and says it is unsaved', async ({ page, workspace, settingsFile, scripted, scriptedModule }) => {
    const { reply, text, toolUse } = scriptedModule;
    const FILE = 'src/draft.ts';
    const TEXT = 'export const draft = 1;\n';
    const TYPED = '// typed but not saved 4711';
    writeWorkspaceFile(workspace, FILE, TEXT);
    await prepareWorkspace(page, settingsFile);
    await openFile(page, FILE);
    try {
      await focusEditor(page, 'draft.ts');
      await page.keyboard.press('Control+End');
      await page.keyboard.type(TYPED);
      await until('the editor of draft.ts does not show as unsaved', async () => (await tab(page, 'draft.ts').first().evaluate((el) => el.classList.contains('dirty'))));
      if (disk(workspace, FILE) !== TEXT) throw new Error('the typed text reached the disk');
      await newChat(page);
      const before = scripted.requests.length;
      scripted.enqueue(reply(toolUse('toolu_read_draft', 'editor__read_file', { path: FILE })), reply(text('I see your unsaved note.')));
      await send(page, 'What does draft.ts say?');
      await chatFrame(page).getByText('I see your unsaved note.').waitFor();
      const read = resultOf(scripted, before, 'toolu_read_draft');
      if (!read || read.isError) throw new Error(`read_file gave the model: ${JSON.stringify(read)}`);
      if (!read.text.includes(`     2\t${TYPED}`)) throw new Error(`read_file did not return the editor's unsaved text: ${JSON.stringify(read.text)}`);
      if (!read.text.startsWith(`[${FILE} has unsaved changes in the editor`)) throw new Error(`read_file did not say the text is unsaved: ${JSON.stringify(read.text)}`);
    } finally {
      await showEditor(page, 'draft.ts').catch(() => undefined);
      await runCommand(page, 'File: Revert File').catch(() => undefined);
      await closeAllEditors(page);
    }
    if (disk(workspace, FILE) !== TEXT) throw new Error('the file on disk changed');
  });

  t.test('Undo this turn\'s changes puts back all three files a turn edited, and the model is told at the next message', async ({ page, workspace, settingsFile, scripted, scriptedModule }) => {
    const { reply, text, toolUse } = scriptedModule;
    const files = threeFiles(workspace, 'undo');
    await prepareWorkspace(page, settingsFile);
    await newChat(page);
    const before = scripted.requests.length;
    await editThreeAccepting(page, scripted, { reply, text, toolUse }, files, 'undo');
    const closing = chatFrame(page).locator('.turn-changes').last();
    const said = squash(await closing.innerText());
    if (!said.startsWith('Changed 3 files:') || !files.every((f) => said.includes(`${f.rel} +1 −1`))) throw new Error(`the turn's close reads "${said}"`);
    await closing.getByRole('button', { name: 'Undo this turn\'s changes' }).click();
    await closing.locator('.changes-undone').filter({ hasText: 'Changes undone' }).waitFor();
    await until(() => `Undo did not restore the files: ${files.map((f) => `${f.rel}: ${JSON.stringify(disk(workspace, f.rel))}`).join('; ')}`, () => files.every((f) => disk(workspace, f.rel) === f.text), 10_000);
    if ((await closing.getByRole('button', { name: 'Undo this turn\'s changes' }).count()) > 0) throw new Error('Undo is still offered after the changes were undone');
    await page.screenshot({ path: join(SHOTS, 'editorEdits-changes-undone.png') });

    const asked = scripted.requests.length;
    scripted.enqueue(reply(text('I will read the files again.')));
    await send(page, 'I put them back.');
    await chatFrame(page).getByText('I will read the files again.').waitFor();
    const sent = JSON.stringify(scripted.requests.slice(asked).at(-1)?.body?.messages?.at(-1));
    if (!sent.includes('[Quiver] The user undid the file changes of your earlier turn') || !files.every((f) => sent.includes(f.rel))) throw new Error(`the next message did not tell the model of the undo: ${sent.slice(0, 600)}`);
    if (scripted.requests.length - before !== 3) throw new Error(`${scripted.requests.length - before} requests for a turn of three edits in one reply and one more message`);
    await closeAllEditors(page);
  });

  t.test('after a window reload, Undo this turn\'s changes on the restored transcript still puts back all three files', async ({ page, workspace, settingsFile, scripted, scriptedModule }) => {
    const { reply, text, toolUse } = scriptedModule;
    const files = threeFiles(workspace, 'reload');
    await prepareWorkspace(page, settingsFile);
    await newChat(page);
    await editThreeAccepting(page, scripted, { reply, text, toolUse }, files, 'reload');
    await reloadWindow(page);
    await openChat(page);
    const closing = chatFrame(page).locator('.turn-changes').last();
    await closing.getByRole('button', { name: 'Undo this turn\'s changes' }).waitFor({ timeout: 30_000 });
    if (!squash(await closing.innerText()).startsWith('Changed 3 files:')) throw new Error(`after the reload the turn's close reads "${squash(await closing.innerText())}"`);
    await closing.getByRole('button', { name: 'Undo this turn\'s changes' }).click();
    await closing.locator('.changes-undone').waitFor();
    await until(() => `Undo after the reload did not restore the files: ${files.map((f) => `${f.rel}: ${JSON.stringify(disk(workspace, f.rel))}`).join('; ')}`, () => files.every((f) => disk(workspace, f.rel) === f.text), 10_000);
    await closeAllEditors(page);
  });

  t.test('with edit_file unattended in User settings, an edit runs without asking, but one that changes quiver.tools in .vscode/settings.json asks every time', async ({ page, workspace, settingsFile, userSettingsFile, scripted, scriptedModule }) => {
    const { reply, text, toolUse } = scriptedModule;
    const userBefore = readFileSync(userSettingsFile, 'utf8');
    const PLAIN = 'src/plain.ts';
    const PLAIN_TEXT = 'export const level = 1;\n';
    writeWorkspaceFile(workspace, PLAIN, PLAIN_TEXT);
    await prepareWorkspace(page, settingsFile);
    try {
      const unattended = applyEdits(userBefore, modify(userBefore, ['quiver.tools', 'editor__edit_file'], { run: 'unattended' }, { formattingOptions: { insertSpaces: true, tabSize: 2 } }));
      await editUserSettings(page, userSettingsFile, unattended);
      const settingsBefore = readFileSync(settingsFile, 'utf8');
      const line = '"everything__echo": { "enable": "on" }';
      if (!settingsBefore.includes(line)) throw new Error(`the workspace settings no longer hold ${line}`);
      await newChat(page);
      const before = scripted.requests.length;
      scripted.enqueue(
        reply(toolUse('toolu_edit_plain', 'editor__edit_file', { path: PLAIN, edits: [{ old_string: 'level = 1', new_string: 'level = 2' }] })),
        reply(toolUse('toolu_edit_settings', 'editor__edit_file', { path: '.vscode/settings.json', edits: [{ old_string: line, new_string: '"everything__echo": { "enable": "on", "run": "unattended" }' }] })),
        reply(text('I could not change the settings.')),
      );
      await send(page, 'Bump the level, and let echo run without asking.');
      const card = await changeApproval(page, '.vscode/settings.json', { added: 1, removed: 1, mustAsk: 'it changes Quiver\'s own settings (quiver.tools) in settings.json' });
      // The plain edit ran before it, unasked.
      if (disk(workspace, PLAIN) !== PLAIN_TEXT.replace('1', '2')) throw new Error(`the unattended edit was not applied before the settings edit asked: ${JSON.stringify(disk(workspace, PLAIN))}`);
      const plain = resultOf(scripted, before, 'toolu_edit_plain');
      if (!plain || plain.isError) throw new Error(`the unattended edit gave the model ${JSON.stringify(plain)}`);
      await page.screenshot({ path: join(SHOTS, 'editorEdits-settings-must-ask.png') });
      await card.getByRole('button', { name: 'Reject' }).click();
      await chatFrame(page).getByText('I could not change the settings.').waitFor();
      if (readFileSync(settingsFile, 'utf8') !== settingsBefore) throw new Error('the rejected settings edit changed .vscode/settings.json');
      const told = resultOf(scripted, before, 'toolu_edit_settings');
      if (!told?.isError || !told.text.startsWith('The user rejected this change (.vscode/settings.json); nothing was applied.')) throw new Error(`the model was told ${JSON.stringify(told)}`);
    } finally {
      // Put back through the editor, so this window reads it at once; the file itself in any case.
      await editUserSettings(page, userSettingsFile, userBefore).catch(() => undefined);
      writeFileSync(userSettingsFile, userBefore);
      await closeAllEditors(page);
    }
  });
}

/** Three small files under src/<tag>/, on disk, with their text. */
function threeFiles(workspace, tag) {
  return ['one', 'two', 'three'].map((n) => {
    const rel = `src/${tag}/${n}.ts`;
    const text = `export const ${n} = '${n}';\n`;
    writeWorkspaceFile(workspace, rel, text);
    return { rel, abs: join(workspace, rel), text, edited: `export const ${n} = '${n.toUpperCase()}';\n` };
  });
}

/** One turn whose model edits the three files in one reply; each asks and is accepted. */
async function editThreeAccepting(page, scripted, { reply, text, toolUse }, files, tag) {
  const done = `All three ${tag} files shout now.`;
  scripted.enqueue(
    reply(text('Editing the three files.'), ...files.map((f, i) => toolUse(`toolu_${tag}_${i}`, 'editor__edit_file', { path: f.rel, edits: [{ old_string: f.text.trim(), new_string: f.edited.trim() }] }))),
    reply(text(done)),
  );
  await send(page, `Make the ${tag} constants upper case.`);
  for (const f of files) {
    const card = await changeApproval(page, f.rel, { added: 1, removed: 1 });
    await card.getByRole('button', { name: 'Accept' }).click();
    await card.waitFor({ state: 'detached' }).catch(() => sleep(300));
  }
  await chatFrame(page).getByText(done).waitFor();
  await until(() => `the three edits are not all on disk: ${files.map((f) => `${f.rel}: ${JSON.stringify(readFileSync(f.abs, 'utf8'))}`).join('; ')}`, () => files.every((f) => readFileSync(f.abs, 'utf8') === f.edited), 10_000);
}
