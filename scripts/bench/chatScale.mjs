// The chat's cost per recorded event as a conversation grows: conversations of 100, 500 and
// 2,000 events (test/unit/chat/variedStream.ts: thinking, text, tool calls, searches with their
// promotions, results, usage, settings deltas), and for each the events at its end, timed one at
// a time. The baseline is what the host did before (the whole stream mapped again and posted as a
// full snapshot; the webview validates it and redraws every item, all new objects); Quiver now
// folds the new event (HistoryFeed) and posts a historyPatch of the items it changed, which the
// webview validates, applies with the same reducer and draws. The webview side is the real
// protocol parser, reducer and Transcript (webview/transcript.ts) in jsdom, as the unit tests run it.
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { loadCompiled } from './compiled.mjs';

const SIZES = [100, 500, 2_000];

function stats(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  // Nearest rank.
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  return { median: at(0.5), p95: at(0.95) };
}

function timed(work) {
  const t0 = performance.now();
  const value = work();
  return { ms: performance.now() - t0, value };
}

/** The snapshot the webview holds after `items`, between turns' live messages. */
function snapshotOf(items, busy) {
  return {
    conversation: { id: 'bench', title: 'Bench' },
    items,
    model: 'claude-sonnet-5-5',
    busy,
    liveUsage: null,
    apiKeySet: true,
    conversations: [],
    pendingApprovals: [],
    pendingElicitations: [],
    toolCompletions: [],
    promptCompletions: [],
    resourceCompletions: [],
    attachments: [],
  };
}

/**
 * Host and webview time per event for the last `window` events of `events`: the host's message
 * for each event (timed: mapping the stream, building the message, serializing it as postMessage
 * does), then the webview's (timed: parsing, validating, reducing, drawing).
 */
function measure(events, window, path, m) {
  const first = events.length - window;
  const prefix = events.slice(0, first);
  const feed = path === 'patch' ? new m.HistoryFeed(prefix, true) : null;
  let hostState = snapshotOf(path === 'patch' ? feed.items : m.historyFromStream(prefix, true).items, true);
  const host = [];
  const wire = [];
  for (let k = first; k < events.length; k++) {
    prefix.push(events[k]);
    const { ms, value } = timed(() => {
      let msg;
      if (path === 'patch') {
        const { patch, liveUsage } = feed.update(prefix, true);
        msg = { type: 'historyPatch', items: patch, busy: true, liveUsage, conversation: hostState.conversation, pendingElicitations: [] };
      } else {
        const history = m.historyFromStream(prefix, true);
        msg = { type: 'snapshot', state: { ...hostState, items: history.items, liveUsage: history.liveUsage } };
      }
      hostState = m.applyHostMessage(hostState, msg);
      return JSON.stringify(msg);
    });
    host.push(ms);
    wire.push(value);
  }
  const transcript = new m.Transcript(() => undefined, { retry: () => undefined, edit: () => undefined, drop: () => undefined });
  let viewState = snapshotOf(path === 'patch' ? new m.HistoryFeed(events.slice(0, first), true).items : m.historyFromStream(events.slice(0, first), true).items, true);
  viewState = JSON.parse(JSON.stringify(viewState));
  transcript.render(viewState);
  const webview = wire.map((json) =>
    timed(() => {
      const parsed = m.parseHostToWebview(JSON.parse(json));
      if (!parsed.ok) throw new Error(parsed.error);
      viewState = m.applyHostMessage(viewState, parsed.value);
      transcript.render(viewState);
    }).ms,
  );
  if (transcript.el.querySelectorAll('.items > *').length !== viewState.items.length) throw new Error('the transcript does not show every item');
  return { host, webview, items: viewState.items.length };
}

export async function run(opts) {
  if (opts.noSpeed) return [];
  const load = (path) => loadCompiled(opts.repoRoot, path);
  const browser = (await load('test/unit/webview/browserGlobals.js')).installBrowserGlobals();
  try {
    const m = {
      ...(await load('src/core/chat/index.js')),
      ...(await load('src/protocol/index.js')),
      ...(await load('webview/transcript.js')),
    };
    const { variedStream } = await load('test/unit/chat/variedStream.js');
    const [window, seeds] = opts.quick ? [10, [1]] : [20, [1, 2]];
    // A warm-up, so the first size does not pay for compiling the markdown and highlighting paths.
    for (const path of ['snapshot', 'patch']) measure(variedStream(100, { rewrites: false, seed: 9 }), 20, path, m);
    const rows = [];
    for (const size of SIZES) {
      const samples = { snapshot: { host: [], webview: [] }, patch: { host: [], webview: [] } };
      let items = 0;
      for (const seed of seeds) {
        const events = variedStream(size, { rewrites: false, seed });
        for (const path of ['snapshot', 'patch']) {
          const r = measure(events, window, path, m);
          samples[path].host.push(...r.host);
          samples[path].webview.push(...r.webview);
          items = Math.max(items, r.items);
        }
      }
      const cells = (xs) => {
        const s = stats(xs);
        return [s.median.toFixed(3), s.p95.toFixed(3)];
      };
      rows.push([String(size), String(items), ...cells(samples.snapshot.host), ...cells(samples.patch.host), ...cells(samples.snapshot.webview), ...cells(samples.patch.webview)]);
    }
    return {
      title: 'Chat cost per recorded event as the conversation grows (ms per event)',
      columns: ['events', 'items', 'host full snapshot (baseline) median', 'p95', 'host patch median', 'p95', 'webview full snapshot (baseline) median', 'p95', 'webview patch median', 'p95'],
      rows,
      notes: [
        `The last ${window} events of ${seeds.length} generated conversation${seeds.length === 1 ? '' : 's'} per size, each timed alone; p95 is nearest-rank. Host: mapping the stream, the message, JSON as postMessage sends it, the host's mirror.`,
        'Webview: JSON.parse, zod validation, the reducer and the Transcript drawing in jsdom (no layout). Restarts, drops, undos and failed turns fold the whole stream again and are not among these events.',
        `Load average ${loadavg().map((l) => l.toFixed(2)).join(' ')} at the end on ${cpus().length} cores.`,
      ],
    };
  } finally {
    browser.remove();
  }
}
