// The chat's layout in the real workbench, against the scripted Messages API: a prompt that waits on
// the user (the approval card) is whole, unobscured and focused in the default split of Chat and
// Tools, after /tools has brought up the Tools pane, and with the Chat pane at its smallest; the
// transcript takes the room that is left, follows new content unless the user scrolled up, and
// offers "Jump to latest" while away from the bottom. Each test prints the heights it measured
// ("[layout] …"). ctx = { page, scripted, scriptedModule }.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { SIDEBAR, chatFrame, chatWindow, ensureApiKey, runCommand, send, sleep, until } from './helpers.mjs';
import { pane, treeRow, treeRows } from './tree.mjs';

const SHOTS = join('.test-artifacts', 'screenshots');
const OUTER = 'iframe.webview.ready[src*="extensionId=quiver-dev.quiver"]';
/** An echo input long enough to wrap over several lines in the sidebar, as real tool inputs do. */
const LONG_INPUT = { message: 'A message long enough to wrap over several lines of the approval card, so the card is as tall as the ones a real tool call shows: '.repeat(3) };
const longAnswer = (what, lines = 30) => Array.from({ length: lines }, (_, i) => `${what}, line ${i + 1}: enough words to take a line of the transcript.`).join('\n\n');

/** Heights and boxes in the chat window (px, its own coordinates), and what has focus there. */
function layoutInWindow() {
  const box = (el) => {
    if (!el) return null;
    const b = el.getBoundingClientRect();
    return { top: Math.round(b.top), bottom: Math.round(b.bottom), height: Math.round(b.height), clientHeight: el.clientHeight, scrollHeight: el.scrollHeight, scrollTop: Math.round(el.scrollTop) };
  };
  const card = document.querySelector('.approval');
  const transcript = document.querySelector('.transcript');
  // Whether what a user sees at a point of the card is the card (nothing drawn over it).
  const ownPoint = (x, y) => {
    const at = document.elementFromPoint(x, y);
    return card !== null && at !== null && card.contains(at);
  };
  let unobscured = false;
  if (card) {
    const c = card.getBoundingClientRect();
    const buttons = [...card.querySelectorAll('button')].map((b) => b.getBoundingClientRect());
    unobscured = ownPoint(c.left + 3, c.top + 3) && ownPoint(c.right - 3, c.bottom - 3) && buttons.every((b) => ownPoint(b.left + b.width / 2, b.top + b.height / 2));
  }
  const jump = document.querySelector('.jump-latest');
  return {
    view: window.innerHeight,
    header: box(document.querySelector('.header')),
    // What shows of the transcript: its pane, which clips it (the transcript itself keeps its padding).
    transcript: box(document.querySelector('.transcript-pane') ?? transcript),
    scroller: box(transcript),
    approvals: box(document.querySelector('.approvals')),
    card: box(card),
    composer: box(document.querySelector('.composer')),
    unobscured,
    focused: document.activeElement?.textContent?.trim() ?? '',
    fromBottom: transcript ? Math.round(transcript.scrollHeight - transcript.scrollTop - transcript.clientHeight) : null,
    jumpShown: jump !== null && !jump.hasAttribute('hidden') && jump.getClientRects().length > 0,
  };
}

const layout = async (page) => (await chatWindow(page)).evaluate(layoutInWindow);

/** The Chat pane's body in the workbench (page coordinates). */
const chatPaneBody = (page) => pane(page, 'Chat').locator('.pane-body').boundingBox();

const toolsHeader = (page) => pane(page, 'Tools').locator('.pane-header');

function report(what, m, pane) {
  const h = (b) => (b ? `${b.height}` : '–');
  console.log(`    [layout] ${what}: chat pane body ${pane ? Math.round(pane.height) : '?'} px, webview ${m.view} px; header ${h(m.header)}, transcript ${h(m.transcript)}, ` +
    `approval area ${m.approvals ? `${m.approvals.clientHeight} holding ${m.approvals.scrollHeight}` : '–'}, card ${m.card ? `${m.card.height} (top ${m.card.top}, bottom ${m.card.bottom})` : '–'}, composer ${h(m.composer)}; focus on "${m.focused.slice(0, 30)}"`);
}

/**
 * Fails unless the approval card is whole inside the webview and the Chat pane, nothing covers it,
 * and (unless `focused` is false: the workbench has the focus elsewhere) its first button has focus.
 */
async function expectCardWholeAndFocused(page, what, { focused = true } = {}) {
  const chat = chatFrame(page);
  await chat.getByRole('button', { name: 'Allow once' }).waitFor();
  let m;
  // The card is focused and scrolled into view in the frame after it renders.
  await until(async () => `${what}: the card is not whole${focused ? ' and focused' : ''}: ${JSON.stringify(m)}`, async () => {
    m = await layout(page);
    return m.card !== null && (!focused || m.focused === 'Allow once') && m.card.top >= 0 && m.card.bottom <= m.view;
  }, 5_000).catch(async (err) => {
    report(what, m ?? (await layout(page)), await chatPaneBody(page));
    throw err;
  });
  const pane = await chatPaneBody(page);
  report(what, m, pane);
  if (m.approvals.scrollHeight > m.approvals.clientHeight + 1) throw new Error(`${what}: the approval area is ${m.approvals.clientHeight} px tall holding ${m.approvals.scrollHeight} px`);
  if (!m.unobscured) throw new Error(`${what}: something is drawn over the approval card or its buttons`);
  const card = await chat.locator('.approval').boundingBox();
  const frame = await page.locator(OUTER).boundingBox();
  for (const [name, outer] of [['the Chat pane', pane], ['the webview', frame]]) {
    if (!card || !outer || card.y < outer.y - 1 || card.y + card.height > outer.y + outer.height + 1) {
      throw new Error(`${what}: the approval card (${JSON.stringify(card)}) is not inside ${name} (${JSON.stringify(outer)})`);
    }
  }
  return m;
}

async function newChat(page) {
  await runCommand(page, 'Quiver: New Chat');
  await until('the new chat is not empty', async () => (await chatFrame(page).locator('.item').count()) === 0);
}

/** Sends `message` and waits for its reply `answer` (a long text that overflows the transcript). */
async function exchange(page, scripted, { reply, text }, message, answer) {
  scripted.enqueue(reply(text(answer)));
  await send(page, message);
  await chatFrame(page).locator('.composer .send').waitFor({ state: 'visible' });
  await chatFrame(page).getByText(answer.split('\n')[0]).waitFor();
}

const atBottom = (m) => m.fromBottom !== null && m.fromBottom <= 2;

async function shoot(page, name) {
  mkdirSync(SHOTS, { recursive: true });
  await page.locator(SIDEBAR).screenshot({ path: join(SHOTS, `${name}.png`) });
}

export default function (t) {
  t.test('in the default split of Chat and Tools an approval card is whole, focused, and the transcript gives way to it', async ({ page, scripted, scriptedModule }) => {
    const { reply, text, toolUse } = scriptedModule;
    await ensureApiKey(page);
    await newChat(page);
    const empty = await layout(page);
    report('first open, empty chat', empty, await chatPaneBody(page));
    await exchange(page, scripted, scriptedModule, 'Tell me a long story.', longAnswer('The story'));
    // A message sent while its server is still starting goes without that server's tools: wait for echo to be listed.
    await treeRow(page, ['On', 'everything', 'echo'], { ms: 45_000 });
    scripted.enqueue(reply(toolUse('toolu_layout_echo', 'everything__echo', LONG_INPUT)), reply(text('Echoed in the default layout.')));
    await send(page, 'Echo a long message.');
    const m = await expectCardWholeAndFocused(page, 'default split');
    if (!atBottom(m)) throw new Error(`the transcript did not keep to its bottom when the card took room from it (${m.fromBottom} px from the bottom)`);
    await shoot(page, 'layout-approval-default-split');
    await chatFrame(page).getByRole('button', { name: 'Allow once' }).click();
    await chatFrame(page).getByText('Echoed in the default layout.').waitFor();
  });

  t.test('the transcript follows new content unless scrolled up; Jump to latest (keyboard) goes back; sending always scrolls to the message', async ({ page, scripted, scriptedModule }) => {
    const { reply, text, toolUse } = scriptedModule;
    await ensureApiKey(page);
    await newChat(page);
    const chat = chatFrame(page);
    await exchange(page, scripted, scriptedModule, 'Tell me a long story.', longAnswer('The first story'));
    let m = await layout(page);
    if (!atBottom(m)) throw new Error(`a reply that overflows the transcript was not followed (${m.fromBottom} px from the bottom)`);
    if (m.jumpShown) throw new Error('"Jump to latest" shows while the transcript is at its bottom');

    // A reply arrives while the user reads further up: the transcript stays where they are.
    const later = longAnswer('The second story', 20);
    scripted.enqueue(reply(toolUse('toolu_follow_echo', 'everything__echo', { message: 'follow' })), reply(text(later)));
    await send(page, 'Echo, then tell another story.');
    await chat.getByRole('button', { name: 'Allow once' }).waitFor();
    await chat.locator('.transcript').hover();
    await page.mouse.wheel(0, -4000);
    await until(async () => `the transcript did not scroll up: ${JSON.stringify(await layout(page))}`, async () => (await layout(page)).scroller.scrollTop === 0);
    const jump = chat.getByRole('button', { name: /^Jump to latest/ });
    await jump.waitFor({ state: 'visible' });
    await chat.getByRole('button', { name: 'Allow once' }).click();
    await chat.getByText(later.split('\n')[0]).waitFor({ state: 'attached' });
    await chat.locator('.composer .send').waitFor({ state: 'visible' });
    await sleep(300);
    m = await layout(page);
    if (m.scroller.scrollTop > 40) throw new Error(`new content pulled the transcript away from where the user scrolled (scrollTop ${m.scroller.scrollTop})`);
    if (!m.jumpShown) throw new Error('"Jump to latest" does not show while new content is below the view');
    await shoot(page, 'layout-jump-to-latest');

    // From the keyboard: Tab reaches it, Enter jumps, and the message box takes the focus back.
    await jump.focus();
    await jump.press('Enter');
    await until(async () => `"Jump to latest" did not bring the transcript to its bottom: ${JSON.stringify(await layout(page))}`, async () => atBottom(await layout(page)));
    m = await layout(page);
    if (m.jumpShown) throw new Error('"Jump to latest" still shows at the bottom');
    if (!(await chat.getByRole('textbox', { name: 'Message' }).evaluate((el) => el === document.activeElement))) throw new Error('after the jump the focus is not in the message box');

    // Scrolled up again, sending scrolls to the new message and follows its reply.
    await chat.locator('.transcript').hover();
    await page.mouse.wheel(0, -4000);
    await until('the transcript did not scroll up again', async () => (await layout(page)).scroller.scrollTop === 0);
    await exchange(page, scripted, scriptedModule, 'And a third one.', longAnswer('The third story', 12));
    m = await layout(page);
    if (!atBottom(m)) throw new Error(`after sending, the transcript is ${m.fromBottom} px from its bottom`);
    const sent = await chat.locator('.item.user').filter({ hasText: 'And a third one.' }).boundingBox();
    if (!sent) throw new Error('the sent message is not in the transcript');
  });

  t.test('after /tools brings up the Tools pane the approval card is still whole and focused', async ({ page, scripted, scriptedModule }) => {
    const { reply, text, toolUse } = scriptedModule;
    await ensureApiKey(page);
    await newChat(page);
    await exchange(page, scripted, scriptedModule, 'Tell me a long story.', longAnswer('The story'));
    // From a Chat pane that had the whole sidebar: the Tools pane collapsed, then opened by /tools.
    const tools = toolsHeader(page);
    if ((await tools.getAttribute('aria-expanded')) === 'true') await tools.click();
    await until('the Tools pane did not collapse', async () => (await tools.getAttribute('aria-expanded')) === 'false');
    await sleep(500);
    report('Tools pane collapsed', await layout(page), await chatPaneBody(page));
    await send(page, '/tools');
    await until('/tools did not open the Tools pane', async () => (await tools.getAttribute('aria-expanded')) === 'true');
    await treeRows(page).first().waitFor();
    await sleep(500);
    report('after /tools', await layout(page), await chatPaneBody(page));
    scripted.enqueue(reply(toolUse('toolu_layout_tools', 'everything__echo', LONG_INPUT)), reply(text('Echoed with the Tools pane up.')));
    await send(page, 'Echo a long message again.');
    await expectCardWholeAndFocused(page, 'after /tools, waiting on approval');
    await shoot(page, 'layout-approval-tools-pane');
    await chatFrame(page).getByRole('button', { name: 'Allow once' }).click();
    await chatFrame(page).getByText('Echoed with the Tools pane up.').waitFor();
  });

  t.test('a card already up stays whole and focused when the Tools pane opens under it', async ({ page, scripted, scriptedModule }) => {
    const { reply, text, toolUse } = scriptedModule;
    await ensureApiKey(page);
    await newChat(page);
    await exchange(page, scripted, scriptedModule, 'Tell me a long story.', longAnswer('The story'));
    const header = toolsHeader(page);
    if ((await header.getAttribute('aria-expanded')) === 'true') await header.click();
    await until('the Tools pane did not collapse', async () => (await header.getAttribute('aria-expanded')) === 'false');
    scripted.enqueue(reply(toolUse('toolu_layout_open', 'everything__echo', LONG_INPUT)), reply(text('Echoed after the Tools pane opened.')));
    await send(page, 'Echo a long message, please.');
    await expectCardWholeAndFocused(page, 'Tools pane collapsed, waiting on approval');
    await header.click();
    await until('the Tools pane did not open', async () => (await header.getAttribute('aria-expanded')) === 'true');
    await sleep(500);
    // The click on the Tools pane took the focus; the transcript kept to its bottom through the pane's animation.
    const m = await expectCardWholeAndFocused(page, 'Tools pane opened while waiting on approval', { focused: false });
    if (!atBottom(m) || m.jumpShown) throw new Error(`the Tools pane opening pulled the transcript off its bottom (${m.fromBottom} px away)`);
    await shoot(page, 'layout-approval-tools-opened-under-card');
    // Back in the chat from the keyboard (the view's focus command), the focus lands on the waiting question.
    // (A click lands where it clicks: on nothing focusable, that is the page itself.)
    await runCommand(page, 'Quiver: Focus on Chat View');
    await until(async () => `back in the chat the focus is on "${(await layout(page)).focused.slice(0, 40)}", not Allow once`, async () => (await layout(page)).focused === 'Allow once', 5_000);
    await chatFrame(page).getByRole('button', { name: 'Allow once' }).click();
    await chatFrame(page).getByText('Echoed after the Tools pane opened.').waitFor();
  });

  t.test('with the Chat pane dragged to its smallest the card wins over the transcript: whole, focused, buttons in view', async ({ page, scripted, scriptedModule }) => {
    const { reply, text, toolUse } = scriptedModule;
    await ensureApiKey(page);
    await newChat(page);
    await exchange(page, scripted, scriptedModule, 'Tell me a long story.', longAnswer('The story', 10));
    // The sash between the Chat and Tools panes, dragged as far up as the workbench lets it go.
    const sash = page.locator(`${SIDEBAR} .monaco-sash.horizontal`).first();
    const b = await sash.boundingBox();
    if (!b) throw new Error('no sash between the Chat and Tools panes');
    await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2);
    await page.mouse.down();
    await page.mouse.move(b.x + b.width / 2, 0, { steps: 12 });
    await page.mouse.up();
    await sleep(500);
    scripted.enqueue(reply(toolUse('toolu_layout_small', 'everything__echo', LONG_INPUT)), reply(text('Echoed in a small Chat pane.')));
    await send(page, 'Echo a long message once more.');
    const chat = chatFrame(page);
    await chat.getByRole('button', { name: 'Allow once' }).waitFor();
    let m;
    await until(async () => `the focused Allow once is not in view: ${JSON.stringify(m)}`, async () => {
      m = await layout(page);
      return m.focused === 'Allow once' && m.card !== null && m.card.bottom <= m.view;
    }, 5_000);
    report('Chat pane at its smallest', m, await chatPaneBody(page));
    await shoot(page, 'layout-approval-smallest-chat');
    if (m.card.height <= m.view && m.card.top < 0) throw new Error(`the card fits the view (${m.card.height} of ${m.view} px) but its top is cut (${m.card.top})`);
    if (!m.unobscured && m.card.top >= 0) throw new Error('something is drawn over the approval card');
    if (m.transcript.height > 0 && m.card.height + m.header.height + m.composer.height > m.view) throw new Error(`the transcript keeps ${m.transcript.height} px while the card does not fit`);
    await chat.getByRole('button', { name: 'Allow once' }).click();
    await chat.getByText('Echoed in a small Chat pane.').waitFor({ state: 'attached' });
  });
}
