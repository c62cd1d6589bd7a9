// The chat in the real workbench, against the scripted Messages API (ctx.scripted): streaming,
// a search_tools promotion that moves a tool to On in the same turn, approval, and that model
// and tool output never executes in the webview. ctx = { page, settingsFile, scripted, scriptedModule }.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chatFrame, chatWindow, openChat, runCommand, send, setApiKey, sleep, until, writeSetting } from './helpers.mjs';
import { treeRow } from './tree.mjs';
import { THEMES, chatColours, workbenchKind } from './themes.mjs';

const PAYLOAD_FLAG = '__quiverPwned';
const PAYLOADS = [
  `<img src=x onerror="window.${PAYLOAD_FLAG}=1;parent.${PAYLOAD_FLAG}=1">`,
  `<script>window.${PAYLOAD_FLAG}=1</script>`,
  `[a link](javascript:window.${PAYLOAD_FLAG}=1)`,
  `<iframe src="javascript:window.${PAYLOAD_FLAG}=1"></iframe>`,
].join('\n\n');

/** Sets a number setting the way a user does: the Settings editor (User tab), searched by its id. */
async function setInSettingsEditor(page, id, value) {
  await runCommand(page, 'Preferences: Open Settings (UI)');
  await page.locator('.settings-editor .settings-header .monaco-editor').first().click();
  await page.keyboard.type(id);
  const input = page.locator('.settings-editor .setting-item-contents').filter({ hasText: 'Max Load Tokens' }).locator('input').first();
  await input.waitFor();
  await input.fill(value);
  await input.press('Tab');
}

/** What the model read of search `id`: a result that loads tools holds only their references, and its text stands beside it (in the user message before any appended system message). */
function answerTo(body, id) {
  const blocks = [...body.messages].reverse().find((m) => m.role === 'user').content;
  const result = blocks.find((b) => b.tool_use_id === id);
  const own = result.content.find((c) => c.type === 'text');
  return JSON.parse(own ? own.text : blocks.find((b) => b.type === 'text').text);
}

/**
 * A search card as issue 22 asked for it: collapsed after its turn, a header on at most two lines
 * whose query is not squeezed to a few letters, and once opened a row per tool, each name whole
 * (nothing clipped sideways or at the underscores' depth) with its status beside or under it.
 */
async function checkCompactSearchCard(page, card, names) {
  const layout = () => card.evaluate((el) => {
    const summary = el.querySelector('summary');
    const title = el.querySelector('.card-title');
    const line = parseFloat(window.getComputedStyle(summary).lineHeight) || parseFloat(window.getComputedStyle(summary).fontSize) * 1.4;
    return {
      open: el.open,
      summaryHeight: summary.getBoundingClientRect().height,
      line,
      titleWidth: title.getBoundingClientRect().width,
      rows: [...el.querySelectorAll('.found-tool')].map((row) => {
        const name = row.querySelector('code.tool-name');
        const style = window.getComputedStyle(name);
        return {
          name: name.textContent,
          height: row.getBoundingClientRect().height,
          nameHeight: name.getBoundingClientRect().height,
          statuses: row.querySelectorAll('.found-status').length,
          clippedSideways: name.scrollWidth > name.clientWidth + 1,
          lineHeight: parseFloat(style.lineHeight),
          fontSize: parseFloat(style.fontSize),
          mono: /mono|courier|consol|menlo/i.test(style.fontFamily),
          overflow: style.overflow,
        };
      }),
    };
  });
  const closed = await layout();
  if (closed.open) throw new Error('the search card is open after its turn ended');
  if (closed.summaryHeight > 2 * Math.max(closed.line, 18) + 10) throw new Error(`the search card's header takes ${closed.summaryHeight}px: more than two lines`);
  if (closed.titleWidth < 80) throw new Error(`the search card's query is squeezed to ${closed.titleWidth}px`);
  await card.locator('summary').click();
  const open = await layout();
  if (!open.open) throw new Error('the search card does not open on a click');
  const shown = open.rows.map((r) => r.name);
  if (JSON.stringify(shown) !== JSON.stringify(names)) throw new Error(`the card's rows ${JSON.stringify(shown)} are not the tools the search named, in order: ${JSON.stringify(names)}`);
  for (const r of open.rows) {
    if (r.statuses !== 1) throw new Error(`${r.name}: ${r.statuses} statuses on its row`);
    if (!r.mono) throw new Error(`${r.name} is not in a monospace face`);
    if (r.clippedSideways || r.overflow === 'hidden') throw new Error(`${r.name} is cut (${JSON.stringify(r)})`);
    if (!(r.lineHeight >= r.fontSize * 1.3)) throw new Error(`${r.name}: a line height of ${r.lineHeight}px for ${r.fontSize}px text clips underscores and descenders`);
    if (r.height > r.nameHeight + r.lineHeight + 8) throw new Error(`${r.name}'s row takes ${r.height}px: more than its name and one line for its status`);
  }
}


export default function (t) {
  t.test('without an API key the chat says how to set one, and Set API Key stores one', async ({ page }) => {
    await openChat(page);
    await setApiKey(page, ''); // an earlier test file may have stored one
    const chat = chatFrame(page);
    await until('the chat does not explain how to set an API key', async () => /ANTHROPIC_API_KEY/.test(await chat.locator('body').innerText()));
    await setApiKey(page, 'sk-ant-e2e-scripted-key');
    await until('the chat still asks for an API key after it was set', async () => !/ANTHROPIC_API_KEY/.test(await chat.locator('body').innerText()));
  });

  t.test('a scripted search_tools call promotes get-sum to On within the turn, and the call runs after Allow once', async ({ page, scripted, scriptedModule }) => {
    const { reply, text, toolUse } = scriptedModule;
    const before = scripted.requests.length;
    scripted.enqueue(
      reply(text('Let me look for a tool that adds numbers.'), toolUse('toolu_search_1', 'search_tools', { query: 'add two numbers' })),
      reply(toolUse('toolu_sum_1', 'everything__get-sum', { a: 2, b: 3 })),
      reply(text('The sum is **5**.')),
    );
    // A search finds only the tools of servers that are up: wait, as a user would, for get-sum to be listed.
    await treeRow(page, ['Discoverable', 'everything', 'get-sum'], { ms: 45_000 });
    await openChat(page);
    const chat = chatFrame(page);
    await send(page, 'What is 2 + 3? Use a tool.');
    await chat.getByText('Let me look for a tool that adds numbers.').waitFor();
    const found = chat.locator('.found-tool').filter({ hasText: 'everything__get-sum' }).first();
    await found.waitFor({ state: 'attached' });
    await until('the search card does not say everything__get-sum is loaded', async () => /loaded/.test((await found.locator('.found-status').textContent()) ?? ''));
    await treeRow(page, ['On', 'everything', 'get-sum'], { hasText: /promoted in this conversation/ });
    await chat.getByRole('button', { name: 'Allow once' }).click();
    await chat.getByText('The sum is').waitFor();
    const sent = scripted.requests.slice(before).map((r) => r.body);
    if (sent.length !== 3) throw new Error(`expected 3 requests, the scripted server got ${sent.length}`);
    const toolNames = (body) => (body.tools ?? []).map((tool) => tool.name);
    if (toolNames(sent[0]).includes('everything__get-sum')) throw new Error('get-sum was offered before the search found it');
    if (!toolNames(sent[1]).includes('everything__get-sum')) throw new Error(`the request after the search did not offer get-sum: ${toolNames(sent[1]).join(', ')}`);
    const result = JSON.stringify(sent[2].messages.at(-1));
    if (!/5/.test(result)) throw new Error(`the tool result sent to the model does not hold the sum: ${result.slice(0, 300)}`);
    // The promotion keeps the prompt cache: get-sum is deferred and loaded by a reference in the search result.
    const upFront = (body) => JSON.stringify((body.tools ?? []).filter((tool) => tool.defer_loading !== true));
    if (upFront(sent[1]) !== upFront(sent[0]) || JSON.stringify(sent[1].system) !== JSON.stringify(sent[0].system)) throw new Error('the promotion changed the tools loaded up front or the system prompt');
    if ((sent[1].tools ?? []).find((tool) => tool.name === 'everything__get-sum')?.defer_loading !== true) throw new Error('get-sum was not sent with defer_loading');
    if (!JSON.stringify(sent[1].messages).includes('{"type":"tool_reference","tool_name":"everything__get-sum"}')) throw new Error('no tool_reference loads get-sum where the search found it');
    const rejected = scripted.requests.slice(before).filter((r) => r.rejected !== undefined);
    if (rejected.length > 0) throw new Error(`the API's rules rejected a request: ${rejected[0].rejected}`);
  });

  t.test('with quiver.search.maxLoadTokens 0 in User settings a search loads only its best match and lists the rest; a search by exact name loads one of them; its card is compact, its counts add up, and Unload withdraws the tool from the next request', async ({ page, userSettingsFile, scripted, scriptedModule }) => {
    const { reply, text, toolUse } = scriptedModule;
    try {
      await setInSettingsEditor(page, 'quiver.search.maxLoadTokens', '0');
      await until('the Settings editor did not write quiver.search.maxLoadTokens to User settings.json', () => /"quiver\.search\.maxLoadTokens":\s*0\b/.test(readFileSync(userSettingsFile, 'utf8')));
      await page.locator('.tabs-container .tab.active').filter({ hasText: 'Settings' }).locator('.tab-actions .action-label').click();
      await page.locator('.settings-editor').waitFor({ state: 'detached' });
      const before = scripted.requests.length;
      let listed;
      scripted.enqueue(
        reply(text('Looking for resource tools.'), toolUse('toolu_budget_1', 'search_tools', { query: 'resource' })),
        {
          kind: 'decide',
          decide: (body) => {
            listed = answerTo(body, 'toolu_budget_1').not_loaded?.[0]?.name;
            return listed ? reply(toolUse('toolu_budget_2', 'search_tools', { query: listed, limit: 1 })) : reply(text('Nothing was listed.'));
          },
        },
        reply(text('The resource tools are ready.')),
      );
      await openChat(page);
      const chat = chatFrame(page);
      await chat.locator('.composer .send').waitFor({ state: 'visible' }); // not busy: the last turn has ended
      await send(page, 'Find the tools that work with resources.');
      await until('the message "Find the tools that work with resources." does not show in the chat', async () => (await chat.locator('.item.user').filter({ hasText: 'Find the tools that work with resources.' }).count()) > 0)
        .catch(async (err) => {
          const box = await chat.getByRole('textbox', { name: 'Message' }).inputValue().catch(() => '?');
          const banners = await chat.locator('.banners').innerText().catch(() => '?');
          throw new Error(`${err.message} (message box: ${JSON.stringify(box)}; banners: ${JSON.stringify(banners)}; requests so far: ${scripted.requests.length - before})`);
        });
      await chat.getByText(/The resource tools are ready|Nothing was listed/).first().waitFor();
      const sent = scripted.requests.slice(before).map((r) => r.body);
      const first = answerTo(sent[1], 'toolu_budget_1');
      if (first.results.length !== 1 || !listed) throw new Error(`with a budget of 0 the search should load one tool and list the rest: ${JSON.stringify(first).slice(0, 400)}`);
      const second = answerTo(sent[2], 'toolu_budget_2');
      if (second.results[0]?.name !== listed || second.results[0]?.status !== 'usable') throw new Error(`the search for ${listed} by name did not load it: ${JSON.stringify(second).slice(0, 400)}`);
      const references = JSON.stringify(sent[2].messages);
      for (const name of [first.results[0].name, listed]) {
        if (!references.includes(`{"type":"tool_reference","tool_name":"${name}"}`)) throw new Error(`no tool_reference loads ${name}`);
      }
      for (const skipped of first.not_loaded.slice(1)) {
        if (references.includes(`"tool_name":"${skipped.name}"`)) throw new Error(`${skipped.name} was listed, not searched by name, yet loaded`);
      }
      await chat.locator('.found-tool').filter({ hasText: listed }).first().waitFor({ state: 'attached' });
      // The first search's card says what it left out, as the model was told, in counts that add up.
      const firstCard = chat.locator('.search-card').filter({ hasText: '“resource”' }).last();
      const loadedName = first.results[0].name;
      const notLoaded = first.not_loaded.length;
      const counts = () => firstCard.locator('.search-counts').textContent();
      await until('the search card does not count what it found, loaded and left out', async () => (await counts()) === `${1 + notLoaded} found: 1 loaded, ${notLoaded} not loaded`);
      await checkCompactSearchCard(page, firstCard, [loadedName, ...first.not_loaded.map((t) => t.name)]);
      const rowOf = (name) => firstCard.locator('.found-tool').filter({ has: chat.locator('code.tool-name', { hasText: new RegExp(`^${name}$`) }) });
      for (const skipped of first.not_loaded) {
        const status = await rowOf(skipped.name).locator('.found-status').textContent();
        if (status !== 'not loaded') throw new Error(`the card's row for ${skipped.name} says "${status}", not "not loaded"`);
      }
      if (!/^\+\d[\d.]*k? tokens a request$/.test((await firstCard.locator('.search-cost').textContent()) ?? '')) throw new Error('the card does not say what the search adds to every request');
      mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({ path: join(SHOTS, 'search-card.png') });

      // Unload: the tool goes off for this conversation, and the next request withdraws it (appended, nothing rewritten).
      scripted.enqueue(reply(text('Noted, without it.')));
      const beforeUnload = scripted.requests.length;
      await rowOf(loadedName).getByRole('button', { name: 'Unload' }).click();
      await until(`the row of ${loadedName} does not say unloaded after Unload`, async () => (await rowOf(loadedName).locator('.found-status').textContent()) === 'unloaded');
      await until('the counts do not follow the Unload', async () => (await counts()) === `${1 + notLoaded} found: 1 unloaded, ${notLoaded} not loaded`);
      if ((await firstCard.locator('.search-cost').count()) !== 0) throw new Error('an unloaded search still says it adds tokens to every request');
      await expectUnloadedRow(page, loadedName);
      await send(page, 'Carry on without it.');
      await chat.getByText('Noted, without it.').waitFor();
      const next = scripted.requests[beforeUnload]?.body;
      const removed = next.messages.filter((m) => m.role === 'system').flatMap((m) => m.content.filter((b) => b.type === 'tool_removal').map((b) => b.tool?.name));
      if (!removed.includes(loadedName)) throw new Error(`the request after Unload does not withdraw ${loadedName}: removals ${JSON.stringify(removed)}`);
      if (JSON.stringify(next.tools) !== JSON.stringify(sent[2].tools)) throw new Error('Unload rewrote the tools array instead of appending a removal');
      const rejected = scripted.requests.slice(before).filter((r) => r.rejected !== undefined);
      if (rejected.length > 0) throw new Error(`the API's rules rejected a request: ${rejected[0].rejected}`);
    } finally {
      writeSetting(userSettingsFile, ['quiver.search.maxLoadTokens'], undefined);
    }
  });

  t.test('a search for a tool that is already loaded names it: the model reads it under already_loaded, the card says already on', async ({ page, scripted, scriptedModule }) => {
    const { reply, text, toolUse } = scriptedModule;
    const before = scripted.requests.length;
    scripted.enqueue(reply(toolUse('toolu_loaded_1', 'search_tools', { query: 'everything__echo' })), reply(text('Echo is loaded already.')));
    await openChat(page);
    const chat = chatFrame(page);
    await send(page, 'Is there an echo tool?');
    await chat.getByText('Echo is loaded already.').waitFor();
    const answer = answerTo(scripted.requests[before + 1]?.body, 'toolu_loaded_1');
    if (!(answer.already_loaded ?? []).some((t) => t.name === 'everything__echo')) throw new Error(`the model was not told echo is loaded: ${JSON.stringify(answer).slice(0, 400)}`);
    if (answer.results.some((t) => t.name === 'everything__echo')) throw new Error('a loaded tool came back as a result to promote');
    const card = chat.locator('.search-card').filter({ hasText: '“everything__echo”' }).last();
    const echoRow = card.locator('.found-tool').filter({ has: chat.locator('code.tool-name', { hasText: /^everything__echo$/ }) });
    await until('the card does not show echo as already on', async () => (await echoRow.locator('.found-status').textContent().catch(() => '')) === 'already on');
  });

  t.test('model and tool output carrying HTML and javascript: links renders inert', async ({ page, scripted, scriptedModule }) => {
    const { reply, text, toolUse } = scriptedModule;
    scripted.enqueue(
      reply(text(`Here is some markup:\n\n${PAYLOADS}`), toolUse('toolu_echo_1', 'everything__echo', { message: PAYLOADS })),
      reply(text(`And again:\n\n${PAYLOADS}`)),
    );
    await openChat(page);
    const chat = chatFrame(page);
    await send(page, 'Echo some HTML back to me.');
    await chat.getByRole('button', { name: 'Allow once' }).click();
    await chat.getByText('And again:').waitFor();
    await sleep(1000);
    const win = await chatWindow(page);
    const report = await win.evaluate((flag) => ({
      flag: window[flag] ?? (window.parent === window ? undefined : 'unreadable'),
      scripts: document.querySelectorAll('.transcript script, main script').length,
      iframes: document.querySelectorAll('iframe').length,
      imgWithHandler: [...document.querySelectorAll('img')].filter((i) => i.getAttribute('onerror')).length,
      jsLinks: [...document.querySelectorAll('a')].filter((a) => /^\s*javascript:/i.test(a.getAttribute('href') ?? '')).length,
    }), PAYLOAD_FLAG);
    if (report.flag !== undefined) throw new Error(`a payload ran in the webview (flag ${String(report.flag)})`);
    if (report.scripts + report.iframes + report.imgWithHandler + report.jsLinks > 0) throw new Error(`live markup in the webview: ${JSON.stringify(report)}`);
    if (await page.evaluate((flag) => window[flag], PAYLOAD_FLAG)) throw new Error('a payload ran in the workbench');
  });

  t.test('the chat stays readable in light, dark and high-contrast themes (text contrast ≥ 4.5:1)', async ({ page, settingsFile }) => {
    await openChat(page);
    mkdirSync(SHOTS, { recursive: true });
    try {
      for (const [theme, kind] of THEMES) {
        writeSetting(settingsFile, ['workbench.colorTheme'], theme);
        await until(`the workbench did not switch to ${theme}`, async () => (await workbenchKind(page)) === kind);
        await sleep(1000); // the webview restyles after the workbench
        const colours = await chatColours(page);
        await page.screenshot({ path: join(SHOTS, `theme-${kind}.png`) });
        if (colours.length < 3) throw new Error(`${theme}: too little text found to check: ${JSON.stringify(colours)}`);
        const poor = colours.filter((c) => c.ratio < 4.5);
        if (poor.length > 0) throw new Error(`${theme}: text below 4.5:1 contrast: ${JSON.stringify(poor)}`);
      }
    } finally {
      writeSetting(settingsFile, ['workbench.colorTheme'], undefined);
    }
  });
}

const SHOTS = join('.test-artifacts', 'screenshots');

/** The tree row and tooltip of a tool the search card unloaded: under Off, saying it is only this conversation. */
async function expectUnloadedRow(page, name) {
  const [server, tool] = name.split('__');
  const unloaded = await treeRow(page, ['Off', server, tool], { hasText: /unloaded in this conversation/ });
  await unloaded.hover();
  const hover = page.locator('.monaco-hover, .workbench-hover').filter({ hasText: name });
  await until(`the tooltip of ${name} does not say it was unloaded in this conversation only`, async () => /this conversation/.test((await hover.first().innerText().catch(() => '')) ?? ''));
}
