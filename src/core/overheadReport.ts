import type { Availability } from './availability';
import type { RequestUsage } from './requestUsage';
import type { SearchActivity } from './searchActivity';
import { formatTokens, offeredSplit, type ToolOverview, type ToolOverviewItem } from './toolOverview';

export interface OverheadReportInput {
  readonly overview: ToolOverview;
  readonly activity: SearchActivity;
  readonly contextWindowTokens: number;
  readonly conversationTitle: string;
  /** The open conversation's requests, from its stream (requestUsageOf). */
  readonly requests: readonly RequestUsage[];
}

/** Text for a markdown table cell: pipes, backticks, brackets, angle brackets and newlines would break or inject markup. */
function cell(text: string): string {
  return text.replace(/[\\|`*_[\]<>#]/g, (c) => `\\${c}`).replace(/\s+/g, ' ').trim();
}

const LABEL: Record<Availability, string> = { on: 'on', discoverable: 'discoverable', off: 'off' };

function availabilityOf(item: ToolOverviewItem): string {
  return item.promoted ? 'on (promoted in this conversation)' : LABEL[item.availability];
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
  ];
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
    ...sorted.map(([name, r]) => `| ${cell(name)} | ${r.on} | ${r.discoverable} | ${r.off} | ${formatTokens(r.tokens)} |`),
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
    ...byServer.map((i) => `| ${cell(i.tool.server ?? 'Quiver builtins')} | ${cell(i.tool.toolName)} | ${availabilityOf(i)} | ${formatTokens(i.tokens)} |`),
  ];
}

function conversationSection(input: OverheadReportInput): string[] {
  const { activity } = input;
  const lines = [
    `## This conversation: ${cell(input.conversationTitle)}`,
    '',
    `- Searches: ${activity.searches.length}, in ${activity.turnsWithSearch} of ${activity.turns} turns`,
    `- Turns in which the model called a tool a search had found: ${activity.turnsUsingFoundTools}`,
  ];
  if (activity.searches.length === 0) return [...lines, '', 'No search has run in this conversation yet.'];
  return [
    ...lines,
    '',
    '| # | query | found | not loaded | promoted | called later |',
    '|---:|---|---|---|---|---|',
    ...activity.searches.map((s, i) => {
      const names = (list: readonly string[]): string => (list.length > 0 ? list.map(cell).join(', ') : '—');
      const found = s.found.map((f) => `${cell(f.name)}${f.usable ? '' : ' (unavailable)'}`).join(', ') || '—';
      return `| ${i + 1} | ${cell(s.query)} | ${found} | ${names(s.notLoaded)} | ${names(s.promoted)} | ${names(s.called)} |`;
    }),
  ];
}

function requestTable(requests: readonly RequestUsage[]): string[] {
  if (requests.length === 0) return [];
  return [
    '',
    '### Requests and the prompt cache',
    '',
    'Each request of this conversation as the API reported it. Quiver only ever appends to a request, so after the first one nearly all of the prompt should be read from cache; a miss says why.',
    '',
    '| # | input | cache read | cache write | read | tool changes before it | cache miss |',
    '|---:|---:|---:|---:|---:|---|---|',
    ...requests.map((r, i) => `| ${i + 1} | ${r.input} | ${r.cacheRead} | ${r.cacheWrite} | ${Math.round(100 * r.readShare)}% | ${r.changes.map(cell).join('; ') || '—'} | ${r.cacheMiss !== undefined ? cell(r.cacheMiss) : '—'} |`),
  ];
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
  return [...summary(input), '', ...conversationSection(input), ...requestTable(input.requests), '', ...serverTable(input.overview), '', ...toolTable(input.overview), '', ...actions, ''].join('\n');
}
