// The editor's own tools that read, ask the language service or run commands, in the real editor
// with the scripted model: search_tools loads editor__find_references, which answers from the
// TypeScript language service; editor__run_command (found by search_tools, asks) returns its output
// and exit code, and the chat's Stop ends a long one; a read outside the workspace asks every time,
// and an edit in .git/ is refused without asking. (The edits: editorEdits.ui.mjs, whose helpers
// this file shares.) ctx = { page, workspace, settingsFile, scripted, scriptedModule }.
import { readFileSync, realpathSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { chatFrame, send, until } from './helpers.mjs';
import { approval, closeAllEditors, disk, newChat, resultOf, squash, prepareWorkspace, writeWorkspaceFile } from './editorEdits.ui.mjs';

const SHOTS = join(import.meta.dirname, '..', '..', '..', '.test-artifacts', 'screenshots');

const LANG = {
  'lang/tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, target: 'ES2022', module: 'commonjs' }, include: ['*.ts'] }, null, 2),
  'lang/greet.ts': 'export function greet(name: string): string {\n  return `Hello, ${name}`;\n}\n',
  'lang/a.ts': "import { greet } from './greet';\n\nexport const fromA = greet('a');\n",
  'lang/b.ts': "import { greet } from './greet';\n\nexport function fromB(): string {\n  return greet('b');\n}\n",
};

/** The tool_result of call `id` anywhere in a request's messages (a stopped turn's call is answered in the next request). */
function anyResult(body, id) {
  for (const m of body?.messages ?? []) {
    for (const b of Array.isArray(m.content) ? m.content : []) {
      if (b.type === 'tool_result' && b.tool_use_id === id) return { text: typeof b.content === 'string' ? b.content : (b.content ?? []).map((c) => c.text ?? '').join(''), isError: b.is_error === true };
    }
  }
  return undefined;
}

/** Whether a process whose command line is exactly `cmd` runs on this machine (code-server runs here too). */
const running = (cmd) => spawnSync('pgrep', ['-x', '-f', cmd]).status === 0;

const toolCard = (page, name) => chatFrame(page).locator('.tool-card').filter({ hasText: name }).last();

/** The approval card of a call that is no change (a read, a command): its title, note and buttons. */
async function callApproval(page, toolName, mustAsk = null) {
  const card = approval(page).filter({ hasText: toolName });
  await card.waitFor({ timeout: 30_000 });
  const title = squash(await card.locator('.approval-title').textContent());
  if (title !== `Run ${toolName}?`) throw new Error(`the approval card's title reads "${title}"`);
  const buttons = (await card.locator('.approval-actions button').allInnerTexts()).map(squash);
  const want = mustAsk === null ? ['Allow once', 'Always allow this tool', 'Deny'] : ['Allow once', 'Deny'];
  if (buttons.join('|') !== want.join('|')) throw new Error(`the card offers ${JSON.stringify(buttons)}, not ${JSON.stringify(want)}`);
  const note = card.locator('.approval-must-ask');
  if (mustAsk === null && (await note.count()) > 0) throw new Error(`the card says "${await note.innerText()}"`);
  if (mustAsk !== null && squash(await note.innerText()) !== `Asks every time: ${mustAsk}.`) throw new Error(`the card's note reads "${squash(await note.innerText())}", not "Asks every time: ${mustAsk}."`);
  return card;
}

/** A turn whose model finds run_command with search_tools and calls it with `command`; returns when its approval shows. */
async function runCommandTurn(page, scripted, { reply, text, toolUse }, id, command, answer) {
  scripted.enqueue(
    reply(text('Let me find a tool that runs commands.'), toolUse(`toolu_search_${id}`, 'search_tools', { query: 'editor__run_command' })),
    reply(toolUse(`toolu_${id}`, 'editor__run_command', { command })),
    ...(answer === undefined ? [] : [reply(text(answer))]),
  );
  await send(page, `Run ${command}.`);
  return callApproval(page, 'editor__run_command');
}

export default function (t) {
  t.test('search_tools "references" loads editor__find_references, which lists the real references in three TypeScript files', async ({ page, workspace, settingsFile, scripted, scriptedModule }) => {
    const { reply, text, toolUse } = scriptedModule;
    for (const [rel, content] of Object.entries(LANG)) writeWorkspaceFile(workspace, rel, content);
    await prepareWorkspace(page, settingsFile);
    await newChat(page);
    const before = scripted.requests.length;
    scripted.enqueue(
      reply(text('Looking for a tool that finds references.'), toolUse('toolu_search_refs', 'search_tools', { query: 'references' })),
      reply(toolUse('toolu_refs', 'editor__find_references', { path: 'lang/greet.ts', line: 1, symbol: 'greet' })),
      reply(text('greet is used in a.ts and b.ts.')),
    );
    await send(page, 'Where is greet used?');
    const found = chatFrame(page).locator('.found-tool').filter({ hasText: 'editor__find_references' }).first();
    await found.waitFor({ state: 'attached', timeout: 30_000 });
    await chatFrame(page).getByText('greet is used in a.ts and b.ts.').waitFor({ timeout: 50_000 });
    const sent = scripted.requests.slice(before).map((r) => r.body);
    const offered = (body) => (body.tools ?? []).map((tool) => tool.name);
    if (offered(sent[0]).includes('editor__find_references')) throw new Error('editor__find_references was offered before the search found it (it should be discoverable)');
    if (!offered(sent[1]).includes('editor__find_references')) throw new Error(`the request after the search did not offer editor__find_references: ${offered(sent[1]).join(', ')}`);
    if (!JSON.stringify(sent[1].messages).includes('{"type":"tool_reference","tool_name":"editor__find_references"}')) throw new Error('no tool_reference loads editor__find_references where the search found it');
    const refs = resultOf(scripted, before, 'toolu_refs');
    if (!refs || refs.isError) throw new Error(`find_references gave the model ${JSON.stringify(refs)}`);
    for (const want of [
      /5 references in 3 files/,
      /^lang\/a\.ts:1:10 {2}import \{ greet \} from '\.\/greet';$/m,
      /^lang\/a\.ts:3:22 {2}export const fromA = greet\('a'\);$/m,
      /^lang\/b\.ts:1:10 {2}import \{ greet \} from '\.\/greet';$/m,
      /^lang\/b\.ts:4:10 {2}return greet\('b'\);$/m,
      /^lang\/greet\.ts:1:17 {2}export function greet\(name: string\): string \{$/m,
    ]) {
      if (!want.test(refs.text)) throw new Error(`find_references did not give ${want}: ${JSON.stringify(refs.text)}`);
    }
    const rejected = scripted.requests.slice(before).filter((r) => r.rejected !== undefined);
    if (rejected.length > 0) throw new Error(`the API's rules rejected a request: ${rejected[0].rejected}`);
  });

  t.test('run_command, found by search_tools, asks; in a terminal named Quiver, its output and exit code come back', async ({ page, settingsFile, scripted, scriptedModule }) => {
    const COMMAND = "echo hi; printf 'two\\n'; (exit 3)";
    await prepareWorkspace(page, settingsFile);
    await newChat(page);
    const before = scripted.requests.length;
    const card = await runCommandTurn(page, scripted, scriptedModule, 'run_output', COMMAND, 'It printed two lines and exited with 3.');
    await card.getByRole('button', { name: 'Allow once' }).click();
    await chatFrame(page).getByText('It printed two lines and exited with 3.').waitFor({ timeout: 45_000 });
    const result = resultOf(scripted, before, 'toolu_run_output');
    if (result?.text !== `$ ${COMMAND}    (in .)\nhi\ntwo\n[exit code 3]` || !result.isError) throw new Error(`run_command gave the model ${JSON.stringify(result)}`);
    const terminal = page.locator('.part.panel').getByText('Quiver', { exact: true }).first();
    await terminal.waitFor({ timeout: 5_000 }).catch(() => { throw new Error('no terminal named Quiver shows in the panel'); });
    await page.screenshot({ path: join(SHOTS, 'editorTools-run-command.png') });
  });

  t.test('run_command "echo hi; exit 3" gives the output and [exit code 3]', async ({ page, settingsFile, scripted, scriptedModule }) => {
    await prepareWorkspace(page, settingsFile);
    await newChat(page);
    const before = scripted.requests.length;
    const card = await runCommandTurn(page, scripted, scriptedModule, 'run_exit', 'echo hi; exit 3', 'It printed hi and exited with 3.');
    await card.getByRole('button', { name: 'Allow once' }).click();
    await chatFrame(page).getByText('It printed hi and exited with 3.').waitFor({ timeout: 45_000 });
    const result = resultOf(scripted, before, 'toolu_run_exit');
    if (!result) throw new Error('the model got no result for run_command');
    const lines = result.text.split('\n');
    if (lines[0] !== '$ echo hi; exit 3    (in .)' || lines[1] !== 'hi') throw new Error(`run_command gave the model ${JSON.stringify(result)}`);
    // With shell integration the command line goes to the terminal's own shell, which `exit 3` ends.
    if (lines.at(-1) !== '[exit code 3]' || !result.isError) throw new Error(`the exit code did not come back: run_command gave the model ${JSON.stringify(result)}`);
  });

  t.test('Stop in the chat ends a running run_command (sleep): the turn ends stopped and the process is gone', async ({ page, settingsFile, scripted, scriptedModule }) => {
    const { reply, text } = scriptedModule;
    const SLEEP = 'sleep 617';
    await prepareWorkspace(page, settingsFile);
    await newChat(page);
    const before = scripted.requests.length;
    // No reply after the call: a stopped turn asks the model nothing more.
    const card = await runCommandTurn(page, scripted, scriptedModule, 'run_sleep', SLEEP);
    await card.getByRole('button', { name: 'Allow once' }).click();
    await until(`"${SLEEP}" did not start`, () => running(SLEEP), 30_000);
    await chatFrame(page).locator('.tool-card.status-running').filter({ hasText: 'editor__run_command' }).waitFor();
    await chatFrame(page).locator('button.stop').click();
    await chatFrame(page).locator('.turn-summary.reason-cancelled').waitFor();
    await until(`"${SLEEP}" still runs after Stop`, () => !running(SLEEP), 10_000);
    const title = squash(await toolCard(page, 'editor__run_command').locator('summary').innerText());
    if (!/^Ran editor__run_command Stopped\b/.test(title)) throw new Error(`the stopped call's card reads "${title}", not that it was stopped`);
    if (scripted.requests.length - before !== 2) throw new Error(`${scripted.requests.length - before} requests for a turn stopped in its second call`);
    // The model reads what became of the call with the next message.
    scripted.enqueue(reply(text('Understood, it was stopped.')));
    await send(page, 'I stopped it.');
    await chatFrame(page).getByText('Understood, it was stopped.').waitFor();
    const told = anyResult(scripted.requests.at(-1)?.body, 'toolu_run_sleep');
    if (!told || !/stopped by the user/.test(told.text)) throw new Error(`the model was told ${JSON.stringify(told)} of the stopped call, not that the user stopped it`);
    console.log(`      [editorTools] the stopped call's result for the model: ${JSON.stringify(told.text)}`);
  });

  t.test('read_file of a path outside the workspace asks every time, and runs once allowed', async ({ page, settingsFile, scripted, scriptedModule }) => {
    const { reply, text, toolUse } = scriptedModule;
    const OUTSIDE = '/etc/hostname';
    const real = realpathSync(OUTSIDE);
    await prepareWorkspace(page, settingsFile);
    await newChat(page);
    const before = scripted.requests.length;
    scripted.enqueue(reply(toolUse('toolu_read_outside', 'editor__read_file', { path: OUTSIDE })), reply(text('That is the machine\'s name.')));
    await send(page, 'What is this machine called?');
    const card = await callApproval(page, 'editor__read_file', `it reads ${real}, outside the workspace folders`);
    if (scripted.requests.length - before !== 1) throw new Error('the read ran before the user answered');
    await page.screenshot({ path: join(SHOTS, 'editorTools-outside-read.png') });
    await card.getByRole('button', { name: 'Allow once' }).click();
    await chatFrame(page).getByText('That is the machine\'s name.').waitFor();
    const read = resultOf(scripted, before, 'toolu_read_outside');
    const first = readFileSync(OUTSIDE, 'utf8').split('\n')[0];
    if (!read || read.isError || !read.text.includes(`     1\t${first}`)) throw new Error(`read_file outside the workspace gave ${JSON.stringify(read)}`);
  });

  t.test('edit_file of .git/config is refused without asking, and the file stays as it was', async ({ page, workspace, settingsFile, scripted, scriptedModule }) => {
    const { reply, text, toolUse } = scriptedModule;
    const CONFIG = '[core]\n\trepositoryformatversion = 0\n\tbare = false\n';
    writeWorkspaceFile(workspace, '.git/config', CONFIG);
    await prepareWorkspace(page, settingsFile);
    await newChat(page);
    const before = scripted.requests.length;
    scripted.enqueue(
      reply(toolUse('toolu_edit_git', 'editor__edit_file', { path: '.git/config', edits: [{ old_string: 'bare = false', new_string: 'bare = true' }] })),
      reply(text('Quiver does not write in .git.')),
    );
    await send(page, 'Make the repository bare.');
    await chatFrame(page).getByText('Quiver does not write in .git.').waitFor();
    if ((await approval(page).count()) > 0) throw new Error('an approval card shows for a refused call');
    const told = resultOf(scripted, before, 'toolu_edit_git');
    if (!told?.isError || !told.text.startsWith('.git/config is inside a .git folder, which Quiver never writes.')) throw new Error(`the model was told ${JSON.stringify(told)}`);
    if (disk(workspace, '.git/config') !== CONFIG) throw new Error('.git/config changed');
    await closeAllEditors(page);
  });
}
