// The Tools tree (and the sidebar's panes) for the workbench UI tests. The Tools pane is the
// smaller one of the sidebar (the chat takes three quarters of it) and its list draws only the rows
// in view, so a test works it as a user does: reads it from the top down and scrolls to a row with
// the mouse wheel. Not a test file (the harness collects only *.ui.mjs).
import { SIDEBAR, sleep, until } from './helpers.mjs';

/** A pattern matching exactly `text`. */
const exactly = (text) => new RegExp(`^${text.replace(/[.*+?^$|()[\]{}\\]/g, '\\$&')}$`);

/** The sidebar's pane titled `title` ('Chat' or 'Tools'), header and body. */
export const pane = (page, title) => page.locator(`${SIDEBAR} .pane`).filter({ has: page.locator('.pane-header h3.title', { hasText: exactly(title) }) }).first();

const toolsList = (page) => pane(page, 'Tools').locator('.monaco-list').first();

/**
 * The rows the Tools tree draws now (`attributes`: more of the selector, as `[aria-level="2"]`).
 * Not the copies a scrolled tree's sticky headers draw over its top: those carry a row's
 * data-index, level and label too.
 */
export const treeRows = (page, attributes = '') => toolsList(page).locator(`.monaco-list-rows > .monaco-list-row[role="treeitem"]${attributes}`);

/** The Tools tree row whose label is exactly `label` (optionally at a tree depth), where drawn. */
export const row = (page, label, level) => treeRows(page, level ? `[aria-level="${level}"]` : '')
  .filter({ has: page.locator('.label-name', { hasText: exactly(label) }) });

/**
 * Turns the mouse wheel `notches` notches, down or up, with the pointer at `point`. A list of the
 * workbench scrolls by the same distance for any one wheel event, whatever its delta (50 px here).
 */
async function wheelAt(page, point, down, notches = 1) {
  await page.mouse.move(point.x, point.y);
  for (let i = 0; i < notches; i++) await page.mouse.wheel(0, down ? 100 : -100);
  await sleep(50);
}

/**
 * What the Tools tree draws now, in one look: where its rows are (their container's top, null
 * with no tree) and the rows drawn, as data. Not the copies of its sticky headers (see treeRows).
 */
const drawn = (page) => toolsList(page).locator('.monaco-list-rows').evaluateAll(([container]) => ({
  top: container?.getBoundingClientRect().top ?? null,
  rows: [...(container?.children ?? [])].filter((el) => el.matches('.monaco-list-row[role="treeitem"]')).map((el) => ({
    index: Number(el.getAttribute('data-index')),
    level: Number(el.getAttribute('aria-level')),
    position: Number(el.getAttribute('aria-posinset')),
    siblings: Number(el.getAttribute('aria-setsize')),
    label: el.querySelector('.label-name')?.textContent ?? '',
    text: el.innerText.replace(/\s+/g, ' ').trim(),
    expanded: el.getAttribute('aria-expanded'),
  })),
}));

/**
 * Turns the wheel over the Tools tree and looks again: what it draws then, and how far it moved
 * in pixels (0 at that end already, or with no tree in view).
 */
async function wheelTools(page, down, notches = 1, before) {
  const box = await toolsList(page).boundingBox();
  const from = before ?? await drawn(page);
  if (!box || from.top === null) return { view: from, moved: 0 };
  await wheelAt(page, { x: box.x + box.width / 2, y: box.y + box.height / 2 }, down, notches);
  const view = await drawn(page);
  return { view, moved: Math.abs(view.top - from.top) };
}

/** Scrolls the Tools tree to its top, and returns what it draws there. */
async function toolsToTop(page) {
  let view = await drawn(page);
  for (let turns = 0; turns < 50; turns++) {
    const turned = await wheelTools(page, false, 20, view);
    view = turned.view;
    if (turned.moved === 0) break;
  }
  return view;
}

/** Scrolls the Tools tree a notch down, or back to the top once at the bottom. */
async function scrollTools(page) {
  if ((await wheelTools(page, true)).moved === 0) await toolsToTop(page);
}

/**
 * How far `row` is from where a click reaches it, in pixels to scroll (0: it is whole in its list
 * and nothing is drawn over it; below 0: up, as for a row under the tree's sticky headers), and
 * the middle of its list, to turn the wheel over.
 */
function offView(row) {
  return row.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const list = (el.closest('.monaco-list') ?? el).getBoundingClientRect();
    const middle = { x: list.left + list.width / 2, y: list.top + list.height / 2 };
    if (box.bottom > list.bottom) return { dy: box.bottom - list.bottom, middle };
    if (box.top < list.top) return { dy: box.top - list.top, middle };
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    const sticky = hit === null || el.contains(hit) ? null : hit.closest('.monaco-tree-sticky-container');
    return { dy: sticky ? box.top - sticky.getBoundingClientRect().bottom : 0, middle };
  });
}

/**
 * Scrolls `target` (a row locator, of the Tools tree or another tree) with the wheel until it is
 * drawn whole where a click reaches it, and returns it. A row not drawn yet is looked for down the
 * Tools tree; one drawn is brought in a notch at a time.
 */
export async function revealRow(page, target, ms = 20_000) {
  await until(`no such row in the Tools tree where a click reaches it, scrolled through: ${String(target)}`, async () => {
    if ((await target.count()) === 0) {
      await scrollTools(page);
      return false;
    }
    const { dy, middle } = await offView(target.first());
    if (dy === 0) return true;
    await wheelAt(page, middle, dy > 0);
    return false;
  }, ms);
  return target;
}

/**
 * Whether `rows` (in index order, read from the top) are the tree as of one moment: indexes from
 * 0 on, and each run of siblings numbered from 1 (to its size, where it ended within the rows; at
 * the end of a `whole` read, every run). A tree that changed during the read (a server came up
 * half way) does not add up.
 */
function addsUp(rows, whole) {
  const lastAt = new Map(); // level → the last row seen at that level under the current parent
  const ended = (level) => [...lastAt.entries()].filter(([l]) => l > level).every(([l, r]) => {
    lastAt.delete(l);
    return r.position === r.siblings;
  });
  for (const [i, r] of rows.entries()) {
    if (r.index !== i || !ended(r.level) || r.position !== (lastAt.get(r.level)?.position ?? 0) + 1) return false;
    lastAt.set(r.level, r);
  }
  return !whole || ended(0);
}

/**
 * The rows of the Tools tree in tree order, read as a user reads a list longer than its pane:
 * from the top down, a few notches of the wheel at a time, to the bottom or until `enough` (given
 * the rows read so far) holds. Each: { index, level, label, text, expanded }. A read that does
 * not add up is read again (at most five times: the last read is returned).
 */
export async function readTree(page, enough = () => false) {
  for (let attempt = 1; ; attempt++) {
    const seen = new Map();
    const sorted = () => [...seen.values()].sort((a, b) => a.index - b.index);
    let whole = true;
    let view = await toolsToTop(page);
    const height = (await toolsList(page).boundingBox())?.height ?? 0;
    for (let notches = 1; ;) {
      for (const r of view.rows) seen.set(r.index, r);
      if (enough(sorted())) {
        whole = false;
        break;
      }
      const turned = await wheelTools(page, true, notches, view);
      if (turned.moved === 0) break;
      // Then as many notches a step as keep two rows of this step in view (a notch as far as these went).
      notches = Math.max(1, Math.floor((height - 44) / (turned.moved / notches)));
      view = turned.view;
    }
    const rows = sorted();
    if (addsUp(rows, whole) || attempt === 5) return rows;
  }
}

/** The tree as read, on one line, to fail with. */
const outline = (rows) => rows.map((r) => `${'  '.repeat(r.level - 1)}${r.expanded === 'false' ? '▸ ' : ''}${r.text}`).join(' | ');

/** The rows along `labels` (group › server › tool) in `rows`, as far as the path is there. */
function pathIn(rows, labels) {
  const path = [];
  let scope = rows;
  for (const [depth, label] of labels.entries()) {
    const hit = scope.find((r) => r.level === depth + 1 && r.label === label);
    if (!hit) break;
    path.push(hit);
    const after = scope.slice(scope.indexOf(hit) + 1);
    const end = after.findIndex((r) => r.level <= depth + 1);
    scope = end === -1 ? after : after.slice(0, end);
  }
  return path;
}

/** The row at `labels` in `rows` (as read), if the whole path is there. */
export function rowIn(rows, labels) {
  const path = pathIn(rows, labels);
  return path.length === labels.length ? path.at(-1) : undefined;
}

/**
 * Scrolls to the row `r` (as read) and returns it, or undefined when the tree moved and another
 * row is there now. The locator holds to the row's place and label: should the tree move again
 * before it is used, it finds nothing rather than a neighbour.
 */
async function revealRead(page, r) {
  const target = row(page, r.label, r.level).and(treeRows(page, `[data-index="${r.index}"]`));
  try {
    return await revealRow(page, target, 10_000);
  } catch {
    return undefined;
  }
}

/**
 * The row at `labels` (group › server › tool, each label exact) in view, as a user finds it: the
 * tree read from the top, each collapsed row on the way scrolled to and clicked open, then the
 * row scrolled to. Waits (servers come up, settings are read) until the row is there, and reads
 * `hasText` if given; `ms` as for `until`.
 */
export async function treeRow(page, labels, { hasText, ms = 30_000 } = {}) {
  let rows = [];
  let found;
  const wanted = `${labels.join(' › ')}${hasText ? ` reading ${hasText}` : ''}`;
  // Read as far as the path is whole, or a row on it is closed (what is under it is not drawn).
  const decided = (read) => {
    const path = pathIn(read, labels);
    return path.length === labels.length || path.some((r) => r.expanded === 'false');
  };
  await until(() => `no row ${wanted} in the Tools tree, as read: ${outline(rows)}`, async () => {
    rows = await readTree(page, decided);
    const path = pathIn(rows, labels);
    const closed = path.find((r, i) => r.expanded === 'false' && i < labels.length - 1);
    if (closed) {
      await (await revealRead(page, closed))?.click();
      return false;
    }
    if (path.length < labels.length || (hasText && !hasText.test(path.at(-1).text))) return false;
    found = await revealRead(page, path.at(-1));
    return found !== undefined;
  }, ms);
  return found;
}

/** Right-clicks `target` (a tree row, scrolled to) and picks the context menu item `name`. */
export async function contextMenu(page, target, name) {
  await revealRow(page, target);
  // A hover the pointer left open on another row (a tree item's tooltip) would take the click.
  await page.mouse.move(0, 0);
  await page.locator('.context-view .hover-contents').waitFor({ state: 'hidden', timeout: 3000 }).catch(() => page.keyboard.press('Escape'));
  await target.click({ button: 'right' });
  const item = page.getByRole('menuitem', { name });
  await item.hover();
  await sleep(300); // the workbench ignores a click that comes too soon after the menu opened
  await item.click();
}
