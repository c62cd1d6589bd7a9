// The Tools view and a settings.json the user wrote by hand (issue 12, items 7–9): a right-click
// toggle edits only the entry it changes, in its shortest form, and VS Code picks the edit up; an
// invalid enable is marked in the tree and opens settings.json at the entry; Describe opens a
// read-only preview; a server toggle that would move tools of other groups asks first.
// ctx = { page, settingsFile, userSettingsFile }.
import { readFileSync, writeFileSync } from 'node:fs';
import { openSidebar, runCommand, sleep, until } from './helpers.mjs';
import { contextMenu, treeRow } from './tree.mjs';

// Comments, odd spacing and indentation on purpose: none of it may change but the edited entry.
const HAND_WRITTEN_TOOLS = `"quiver.tools": {
      // Everything discoverable unless named below.
    "*" :{"enable":"discoverable"},   // the default
  "filesystem__read_text_file":{ "enable" :"on" } ,
    /* on, as a table */ "everything__echo": {"enable": {"availability": "on"}},
        "everything__get-tiny-image": { "enable": { "availability": "off" } }, // off for now
    "everything__get-env": { "enable": "maybe" }
  }
}
`;

const read = (file) => readFileSync(file, 'utf8');

/** What changed between two texts: the one differing stretch, as removed and inserted text. */
function change(before, after) {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let end = 0;
  while (end < before.length - start && end < after.length - start && before[before.length - 1 - end] === after[after.length - 1 - end]) end++;
  return { removed: before.slice(start, before.length - end), inserted: after.slice(start, after.length - end) };
}

async function waitForEdit(file, before) {
  await until(`${file} was not written`, () => read(file) !== before);
  return change(before, read(file));
}

function expectText(file, expected) {
  const actual = read(file);
  if (actual !== expected) throw new Error(`${file} changed more than the entry: ${JSON.stringify(change(expected, actual))} (expected text → actual)`);
}

function expectChange(actual, removed, inserted) {
  if (actual.removed !== removed || !inserted.test(actual.inserted)) {
    throw new Error(`settings.json changed more than the entry: removed ${JSON.stringify(actual.removed)}, inserted ${JSON.stringify(actual.inserted)}`);
  }
}

/** The h1 headings of every markdown preview open (webviews in the editor area). */
async function previewHeadings(page) {
  const headings = [];
  for (const frame of page.frames().filter((f) => f !== page.mainFrame())) {
    headings.push(...await frame.evaluate(() => [...document.querySelectorAll('h1')].map((h) => h.textContent ?? '')).catch(() => []));
  }
  return headings;
}

export default function (t) {
  t.test('Make On rewrites only that entry, as "on"; Make Discoverable back under "*" removes it', async ({ page, settingsFile }) => {
    const fixture = read(settingsFile);
    writeFileSync(settingsFile, fixture.slice(0, fixture.indexOf('"quiver.tools"')) + HAND_WRITTEN_TOOLS);
    await openSidebar(page);

    let before = read(settingsFile);
    await contextMenu(page, await treeRow(page, ['Off', 'everything', 'get-tiny-image']), 'Make On');
    const clicked = Date.now();
    const [tree] = await Promise.all([treeRow(page, ['On', 'everything', 'get-tiny-image']).then(() => Date.now() - clicked), waitForEdit(settingsFile, before)]);
    expectText(settingsFile, before.replace('"everything__get-tiny-image": { "enable": { "availability": "off" } }', '"everything__get-tiny-image": { "enable": "on" }'));
    console.log(`    [timing] right-click Make On on a tool under Off: the row under On ${tree} ms after the click (the group expanded on the way)`);

    before = read(settingsFile);
    await contextMenu(page, await treeRow(page, ['Discoverable', 'everything', 'get-sum']), 'Make On');
    expectChange(await waitForEdit(settingsFile, before), '', /^,\s*"everything__get-sum"\s*:\s*\{\s*"enable"\s*:\s*"on"\s*\}$/);
    await treeRow(page, ['On', 'everything', 'get-sum']);

    await contextMenu(page, await treeRow(page, ['On', 'everything', 'get-sum']), 'Make Discoverable');
    await until(() => `Make Discoverable did not give back the file as it was:\n${read(settingsFile)}`, () => read(settingsFile) === before);
    await treeRow(page, ['Discoverable', 'everything', 'get-sum']);
  });

  t.test('a toggle of an entry in User settings edits the User settings.json in place', async ({ page, userSettingsFile }) => {
    const original = read(userSettingsFile);
    try {
      writeFileSync(userSettingsFile, original.replace(/\n\}\s*$/, ',\n  // Hand-written.\n  "quiver.tools": { "everything__get-annotated-message": {"enable": "off"} }\n}\n'));
      // code-server does not watch User settings for edits made outside it: reload, as a user would.
      await page.reload();
      await page.locator('.monaco-workbench').waitFor();
      await openSidebar(page);
      const before = read(userSettingsFile);
      await contextMenu(page, await treeRow(page, ['Off', 'everything', 'get-annotated-message']), 'Make On');
      await waitForEdit(userSettingsFile, before);
      expectText(userSettingsFile, before.replace('{"enable": "off"}', '{"enable": "on"}'));
      await treeRow(page, ['On', 'everything', 'get-annotated-message']);
    } finally {
      writeFileSync(userSettingsFile, original);
    }
  });

  t.test('an invalid enable is marked in the tree, says why and what is accepted, and opens settings.json at the entry', async ({ page, settingsFile }) => {
    await openSidebar(page);
    const tool = await treeRow(page, ['Off', 'everything', 'get-env']);
    const icon = tool.locator('.custom-view-tree-node-item-icon');
    await until(async () => `the invalid tool's icon is ${await icon.getAttribute('class')}`, async () => /codicon-error/.test((await icon.getAttribute('class')) ?? ''));
    await tool.hover();
    const hover = page.locator('.monaco-hover, .workbench-hover').filter({ hasText: 'is not a valid enable' }).first();
    await hover.waitFor({ state: 'visible' });
    const text = await hover.innerText();
    const accepted = /\[[^\]]*"discoverable"[^\]]*\]/.exec(text)?.[0];
    if (!accepted) throw new Error(`the tooltip lists no accepted values: ${text}`);
    JSON.parse(accepted); // the accepted values are printed as JSON one can paste
    if (!/"maybe"/.test(text)) throw new Error(`the tooltip does not name the invalid value: ${text}`);

    await tool.click();
    const tab = page.locator('.tabs-container .tab.active').filter({ hasText: 'settings.json' });
    await tab.waitFor({ state: 'visible' });
    const file = read(settingsFile);
    const offset = file.indexOf('"maybe"');
    const line = file.slice(0, offset).split('\n').length;
    const column = offset - file.lastIndexOf('\n', offset - 1);
    // The invalid value is selected: the cursor at its end.
    const expected = `Ln ${line}, Col ${column + '"maybe"'.length} (${'"maybe"'.length} selected)`;
    const selection = page.locator('[id="status.editor.selection"]');
    await until(async () => `the selection is not the invalid value (${expected}): ${await selection.innerText().catch(() => '?')}`,
      async () => (await selection.innerText()) === expected);
  });

  t.test('Describe opens the rendered preview of a read-only document: never dirty, and closing it asks nothing', async ({ page }) => {
    await openSidebar(page);
    await contextMenu(page, await treeRow(page, ['On', 'everything', 'echo']), 'Describe');
    const tab = page.locator('.tabs-container .tab').filter({ hasText: 'everything__echo' });
    await tab.waitFor({ state: 'visible' });
    // Rendered, not its markdown source: the name is a heading, underscores and all.
    await until(async () => `the description is not shown as a rendered preview (headings: ${JSON.stringify(await previewHeadings(page))})`,
      async () => (await previewHeadings(page)).includes('everything__echo'));
    if (await page.locator('.editor-instance .view-lines').filter({ hasText: '# everything__echo' }).isVisible()) throw new Error('the markdown source is shown');
    if (/\bdirty\b/.test((await tab.getAttribute('class')) ?? '')) throw new Error('the description is an unsaved (dirty) document');
    await tab.click();
    await runCommand(page, 'View: Close Editor');
    await until('the description tab did not close', async () => (await tab.count()) === 0);
    await sleep(1000);
    if (await page.locator('.monaco-dialog-box').isVisible()) throw new Error('closing the description asked something');
  });

  t.test('Make Discoverable on a server under Off first lists the tools of other groups it would move; Cancel writes nothing', async ({ page, settingsFile }) => {
    await openSidebar(page);
    const before = read(settingsFile);
    const dialog = page.locator('.monaco-dialog-box');
    // Under Off, "everything" holds only get-env (its enable is invalid); echo and get-tiny-image are on.
    await contextMenu(page, await treeRow(page, ['Off', 'everything']), 'Make Discoverable');
    await dialog.waitFor({ state: 'visible' });
    const text = await dialog.innerText();
    await page.screenshot({ path: '.test-artifacts/screenshots/server-toggle-confirmation.png' });
    for (const expected of [/Make every tool of everything discoverable\? This also changes 2 tools not under Off\./, /Not under Off:\s+everything__echo: on → discoverable\s+everything__get-tiny-image: on → discoverable/, /Under Off:\s+everything__get-env: off → discoverable/]) {
      if (!expected.test(text)) throw new Error(`the confirmation lacks ${expected}: ${text}`);
    }
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await sleep(1500);
    expectText(settingsFile, before);

    await contextMenu(page, await treeRow(page, ['Off', 'everything']), 'Make Discoverable');
    await dialog.getByRole('button', { name: 'Make Discoverable' }).click();
    await waitForEdit(settingsFile, before);
    await treeRow(page, ['Discoverable', 'everything', 'echo']);
  });
}
