// /compact in the real workbench, against the scripted Messages API (ctx.scripted; the default
// model, claude-sonnet-5-5, compacts on demand): the Compacted marker shows, the transcript above
// it stays whole and scrollable, and the next message is answered; the status bar tooltip shows
// how full the context window was at the last request. ctx = { page, scripted, scriptedModule }.
import { STATUS, chatFrame, ensureApiKey, runCommand, send, until } from './helpers.mjs';

const LONG = 'A long answer, so that the transcript is taller than its pane and scrolls. '.repeat(40);

/** The transcript's scroll size, and whether its first message is in view. */
const transcriptScroll = (chat) => chat.locator('.transcript').evaluate((scroller) => {
  const first = scroller.querySelector('.item.user');
  const r = first?.getBoundingClientRect();
  const s = scroller.getBoundingClientRect();
  return { scrollTop: Math.round(scroller.scrollTop), scrollHeight: scroller.scrollHeight, clientHeight: scroller.clientHeight, firstInView: r !== undefined && r.bottom > s.top && r.top < s.bottom };
});

export default function (t) {
  t.test('/compact shows the Compacted marker, keeps the transcript above scrollable, and the next message is answered', async ({ page, scripted, scriptedModule }) => {
    const { reply, text } = scriptedModule;
    await ensureApiKey(page);
    await runCommand(page, 'Quiver: New Chat');
    const chat = chatFrame(page);
    await until('the new chat is not empty', async () => (await chat.locator('.item').count()) === 0);
    for (let n = 1; n <= 3; n++) {
      scripted.enqueue(reply(text(`Answer ${n}. ${LONG}`)));
      await send(page, `Question ${n} before compacting`);
      await chat.getByText(`Answer ${n}.`).waitFor();
      await chat.locator('.composer .send').waitFor({ state: 'visible' });
    }
    const requests = scripted.requests.length;
    await send(page, '/compact');
    await chat.locator('.item.compacted').waitFor({ timeout: 30_000 });
    await chat.locator('.composer .send').waitFor({ state: 'visible' });
    const asked = scripted.requests[requests]?.body;
    if (!asked || JSON.stringify(asked.compaction) !== '{"type":"summarize"}') throw new Error(`/compact did not ask the API for an on-demand compaction: ${JSON.stringify(asked?.compaction)}`);
    await page.screenshot({ path: '.test-artifacts/screenshots/compact.png' });

    // Everything above the marker is still there, and the user can scroll back to the first message.
    for (let n = 1; n <= 3; n++) await chat.locator('.transcript .item.user').filter({ hasText: `Question ${n} before compacting` }).waitFor({ state: 'attached' });
    const before = await transcriptScroll(chat);
    if (!before || before.scrollHeight <= before.clientHeight) throw new Error(`the transcript does not scroll: ${JSON.stringify(before)}`);
    await chat.locator('.transcript').hover();
    await until(async () => `scrolling up does not bring the first message into view: ${JSON.stringify(await transcriptScroll(chat))}`, async () => {
      await page.mouse.wheel(0, -2_000);
      return (await transcriptScroll(chat))?.firstInView === true;
    });

    scripted.enqueue(reply(text('The answer after compacting.')));
    await send(page, 'A question after compacting');
    await chat.getByText('The answer after compacting.').waitFor({ timeout: 30_000 });
    const next = scripted.requests.at(-1);
    if (next?.rejected !== undefined) throw new Error(`the message after /compact was refused: ${next.rejected}`);
    if (next?.body.messages[0]?.content[0]?.type !== 'compaction') throw new Error('the message after /compact does not send the compaction block first');
  });

  t.test("the status bar tooltip shows how full the context window was at the last request", async ({ page }) => {
    const item = page.locator(STATUS);
    await item.waitFor({ state: 'visible' });
    await item.hover();
    const hover = page.locator('.monaco-hover, .workbench-hover').filter({ hasText: 'Context window' });
    await until(async () => `the status bar tooltip does not show the window's fill: ${await page.locator('.monaco-hover, .workbench-hover').first().innerText().catch(() => '(no tooltip)')}`, async () =>
      /Context window: \d+% full at the last request \([\d,]+ of [\d,]+ tokens, claude-/.test((await hover.first().innerText().catch(() => '')) ?? ''));
    await page.keyboard.press('Escape');
  });
}
