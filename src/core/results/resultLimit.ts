import type { ResolvedTool } from '../availability';
import { tokensOfChars } from '../overhead/tokens';
import type { ToolDefinition } from '../tools/definitions';
import type { ResultLimit } from './resultView';

/** `quiver.results.*`: how much of one result the model reads at once, unless the tool's own entry says otherwise. */
export interface ResultSettings {
  /** Estimated tokens of a view of a result too long to send whole. */
  readonly maxTokens: number;
  /** A result up to this many estimated tokens goes whole (below maxTokens it acts as maxTokens). */
  readonly thresholdTokens: number;
}

/** The most a server's size hint can raise its tool's threshold to: Claude Code's own cap on `anthropic/maxResultSizeChars`. */
export const MAX_SIZE_HINT_CHARS = 500_000;

/**
 * One tool's limit, most specific first: the user's `resultTokens` for it (its entry, its
 * server's `<server>__*`, `*`), then the server's size hint (which moves only the threshold, as
 * in Claude Code: a result over it still shows the usual view), then the settings.
 */
export function resultLimitFor(resolved: ResolvedTool | undefined, tool: ToolDefinition | undefined, settings: ResultSettings): ResultLimit {
  const own = resolved?.resultTokens;
  if (own === 'whole') return 'whole';
  if (own !== undefined) return { budgetTokens: own, thresholdTokens: own };
  const hint = tool?.resultSizeHintChars;
  const thresholdTokens = hint !== undefined ? tokensOfChars(Math.min(hint, MAX_SIZE_HINT_CHARS)) : settings.thresholdTokens;
  return { budgetTokens: settings.maxTokens, thresholdTokens };
}
