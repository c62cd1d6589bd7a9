import type { Availability } from '../availability';
import { CONTEXT_FILL_WARNING, contextFillText, isContextFillWarning, type ContextFill } from '../context/fill';
import { markdownText } from '../text/markdownText';
import type { RequestUsage, ResultCosts } from './requestUsage';
import type { SearchActivity } from '../search/activity';
import { formatTokens, offeredSplit, UNLOADED_IN_CONVERSATION, type ToolOverview, type ToolOverviewItem } from './toolOverview';

export interface OverheadReportInput {
  readonly overview: ToolOverview;
  readonly activity: SearchActivity;
  readonly contextWindowTokens: number;
  readonly conversationTitle: string;
  /** The open conversation's requests, from its stream (requestUsageOf). */
  readonly requests: readonly RequestUsage[];
  /** The open conversation's tool results (resultCostsOf). */
  readonly results: ResultCosts;
  /** How full the context window was at the open conversation's last request (absent before its first). */
  readonly contextFill?: ContextFill;
}

const LABEL: Record<Availability, string> = { on: 'on', discoverable: 'discoverable', off: 'off' };

function availabilityOf(item: ToolOverviewItem): string {
  if (item.promoted) return 'on (promoted in this conversation)';
  if (!item.unloadedInConversation) return LABEL[item.availability];
  const settings = item.settingsAvailability === undefined ? '' : `; settings say ${LABEL[item.settingsAvailability]}`;
  return `${LABEL[item.availability]} (${UNLOADED_IN_CONVERSATION}${settings})`;
}

function summary(input: OverheadReportInput): string[] {
  const { overview, contextWindowTokens } = input;
  const { upFront, bySearch } = offeredSplit(overview);
  const share = ((100 * overview.offeredTokens) / Math.max(1, contextWindowTokens)).toFixed(1);
  return [
    '# Quiver tool overhead',
    '',
    'Token counts are estimates (compact JSON / 3.5 characters per token).',
    '',
    `- Loaded up front on every request: **~${formatTokens(upFront.tokens)}** tokens (${upFront.count} tools)`,
    `- Loaded by search in this conversation: ~${formatTokens(bySearch.tokens)} tokens (${bySearch.count} tools), where each search found them; the prompt cache keeps them`,
    `- Discoverable, not loaded: ${overview.searchableCount} tools, 0 tokens until a search loads them`,
    `- If every permitted tool were on: ~${formatTokens(overview.permittedTokens)} tokens`,
    `- Share of the ${formatTokens(contextWindowTokens)}-token context window: ${share}%`,
    ...(input.contextFill ? [`- ${fillLine(input.contextFill)}`] : []),
  ];
}

function fillLine(fill: ContextFill): string {
  const warning = isContextFillWarning(fill) ? ` — **past ${Math.round(100 * CONTEXT_FILL_WARNING)}%**: the next requests may not fit; a new chat starts empty` : '';
  return `${markdownText(contextFillText(fill))}${warning}`;
}

function serverTable(overview: ToolOverview): string[] {
  const rows = new Map<string, { on: number; discoverable: number; off: number; tokens: number }>();
  for (const group of ['on', 'discoverable', 'off'] as const) {
    for (const item of overview.groups[group]) {
      const name = item.tool.server ?? 'Quiver builtins';
      const row = rows.get(name) ?? { on: 0, discoverable: 0, off: 0, tokens: 0 };
      row[group]++;
      if (group === 'on') row.tokens += item.tokens;
      rows.set(name, row);
    }
  }
  const sorted = [...rows].sort((a, b) => b[1].tokens - a[1].tokens || (a[0] < b[0] ? -1 : 1));
  return [
    '## Per server',
    '',
    '| server | on | discoverable | off | ~tokens sent |',
    '|---|---:|---:|---:|---:|',
    ...sorted.map(([name, r]) => `| ${markdownText(name)} | ${r.on} | ${r.discoverable} | ${r.off} | ${formatTokens(r.tokens)} |`),
  ];
}

function toolTable(overview: ToolOverview): string[] {
  const items = [...overview.groups.on, ...overview.groups.discoverable, ...overview.groups.off];
  const byServer = [...items].sort((a, b) => ((a.tool.server ?? '') < (b.tool.server ?? '') ? -1 : (a.tool.server ?? '') > (b.tool.server ?? '') ? 1 : b.tokens - a.tokens));
  return [
    '## Per tool',
    '',
    '| server | tool | availability | ~tokens when loaded |',
    '|---|---|---|---:|',
    ...byServer.map((i) => `| ${markdownText(i.tool.server ?? 'Quiver builtins')} | ${markdownText(i.tool.toolName)} | ${availabilityOf(i)} | ${formatTokens(i.tokens)} |`),
  ];
}

function conversationSection(input: OverheadReportInput): string[] {
  const { activity } = input;
  const lines = [
    `## This conversation: ${markdownText(input.conversationTitle)}`,
    '',
    `- Searches: ${activity.searches.length}, in ${activity.turnsWithSearch} of ${activity.turns} turns`,
    `- Turns in which the model called a tool a search had found: ${activity.turnsUsingFoundTools}`,
  ];
  if (activity.searches.length === 0) return [...lines, '', 'No search has run in this conversation yet.'];
  // A list, not a table: lists of tool names side by side ran off the right edge of the preview.
  return [
    ...lines,
    '',
    ...activity.searches.map((s, i) => {
      const names = (list: readonly string[]): string => (list.length > 0 ? list.map(markdownText).join(', ') : '—');
      const found = s.found.map((f) => `${markdownText(f.name)}${f.usable ? '' : ' (unavailable)'}`).join(', ') || '—';
      return `${i + 1}. **${markdownText(s.query)}** — found: ${found}; not loaded: ${names(s.notLoaded)}; promoted: ${names(s.promoted)}; called later: ${names(s.called)}`;
    }),
  ];
}

function requestTable(requests: readonly RequestUsage[]): string[] {
  if (requests.length === 0) return [];
  return [
    '',
    '### Requests and the prompt cache',
    '',
    'Each request of this conversation as the API reported it. Quiver only ever appends to a request, so after the first one nearly all of the prompt should be read from cache; a miss says why. *results*: estimated tokens of the tool results first sent with the request, and of all it carried.',
    '',
    '| # | input | cache read | cache write | read | results: new / carried |',
    '|---:|---:|---:|---:|---:|---:|',
    ...requests.map((r, i) => `| ${i + 1} | ${r.input} | ${r.cacheRead} | ${r.cacheWrite} | ${Math.round(100 * r.readShare)}% | ${formatTokens(r.results.added)} / ${formatTokens(r.results.carried)} |`),
    ...requestNotes(requests),
  ];
}

/** What the conversation's tool results cost: every later request carries each one again. */
function resultsSection(results: ResultCosts): string[] {
  if (results.count === 0) return [];
  const kept = results.kept === 0
    ? 'none was long enough to be shortened'
    : `${results.kept} ${results.kept === 1 ? 'was shortened to' : 'were shortened to a total of'} ~${formatTokens(results.keptShownTokens)} tokens of ~${formatTokens(results.keptWholeTokens)} (kept whole; ${results.reads} \`read_result\` ${results.reads === 1 ? 'call' : 'calls'} read from ${results.kept === 1 ? 'it' : 'them'}), as \`quiver.results.maxTokens\` and \`quiver.results.thresholdTokens\` set`;
  return ['', '### Tool results', '', `- ${results.count} tool results, ~${formatTokens(results.sentTokens)} tokens as the model got them; ${kept}`];
}

/** What changed before a request and why its cache missed, as a list under the table: free text in cells ran off the right edge. */
function requestNotes(requests: readonly RequestUsage[]): string[] {
  const notes = requests.flatMap((r, i) => {
    const parts = [
      ...(r.changes.length > 0 ? [`tool changes before it: ${r.changes.map(markdownText).join('; ')}`] : []),
      ...(r.cacheMiss !== undefined ? [`cache miss: ${markdownText(r.cacheMiss)}`] : []),
      ...r.managed.map((m) => `context: ${m}`),
    ];
    return parts.length > 0 ? [`- Request ${i + 1}: ${parts.join('; ')}`] : [];
  });
  return notes.length > 0 ? ['', ...notes] : [];
}

/**
 * The breakdown the status bar opens: what the tool definitions cost, per server and tool, and
 * what discovery did in the open conversation. Markdown, read-only; actions live elsewhere.
 */
export function renderOverheadReport(input: OverheadReportInput): string {
  const actions = [
    '## Changing it',
    '',
    'Right-click a tool or a server in the **Tools** view for Make On, Make Discoverable or Make Off, or run **Quiver: Make the Costliest Server Discoverable** from the Command Palette.',
  ];
  return [...summary(input), '', ...conversationSection(input), ...requestTable(input.requests), ...resultsSection(input.results), '', ...serverTable(input.overview), '', ...toolTable(input.overview), '', ...actions, ''].join('\n');
}
