import type { Attachment } from '../attachments/attachment';
import { confidentMatches } from '../search';
import type { StreamEvent } from '../stream/events';
import type { ToolDefinition } from '../tools';
import { SEARCH_TOOLS_NAME } from '../tools';
import { preloadDelta } from './commitBuffer';
import type { BuiltinTools } from './ports';
import type { ToolPlan } from './toolPlan';
import { unloadedTools } from './upcomingPlan';

/** How many of a message's matches the confidence rule looks at: the top two and the one after. */
const RANKED = 3;
/** Characters of each attachment's text that join the query: its head says what it is about. */
const ATTACHMENT_HEAD = 500;

/** What a preload ranks: the message, and each attachment's name and the head of its text. */
export function preloadQuery(text: string, attachments: readonly Attachment[]): string {
  const named = attachments.map((a) => `${a.kind === 'resource' ? a.name : (a.path ?? '')} ${a.text.slice(0, ATTACHMENT_HEAD)}`);
  return [text, ...named].join('\n').trim();
}

export interface PreloadInput {
  readonly events: readonly StreamEvent[];
  readonly plan: ToolPlan;
  readonly builtins: BuiltinTools;
  readonly catalogue: readonly ToolDefinition[];
  readonly query: string;
  readonly loadBudget: number;
  readonly at: string;
}

/**
 * The promotion to record before the turn's first request when the ranker is confident about
 * the message (quiver.search.preload): only where search_tools is offered, only among the
 * searchable tools (so never an off one), never a tool this conversation unloaded; see
 * confidentMatches and preloadDelta. Empty when nothing qualifies.
 *
 * The message is ranked against the tools already offered too: when the best match is one the
 * model already has ("and which events belong to that issue?" after a search loaded the events
 * tool), it needs nothing more, and loading the runner-up would only add a definition every
 * later request carries.
 */
export function preloadEvents(input: PreloadInput): StreamEvent[] {
  const { plan, query } = input;
  if (query === '' || !plan.offered.some((t) => t.name === SEARCH_TOOLS_NAME)) return [];
  const unloaded = unloadedTools(input.events, plan);
  const searchable = plan.searchable.filter((t) => !unloaded.has(t.name));
  const offered = plan.offered.filter((t) => t.server !== undefined);
  const answer = input.builtins.search({ query, limit: RANKED }, [...searchable, ...offered]);
  if (!answer.ok) return [];
  const confident = confidentMatches(answer.results);
  const isOffered = new Set(offered.map((t) => t.name));
  if (confident[0] === undefined || isOffered.has(confident[0].name)) return [];
  return preloadDelta(confident.filter((m) => !isOffered.has(m.name)), plan.config, input.catalogue, input.loadBudget, input.at);
}
