import type { ModelCapabilities } from '../models/capabilities';
import { SEARCH_TOOLS_NAME } from '../tools/definitions';

/** `quiver.context.management`: `auto` lets the API clear and compact where the model supports it. */
export type ContextManagementSetting = 'auto' | 'off';

/**
 * Which of the API's edits a conversation asks for: the setting's two, or one edit alone at the
 * threshold it has under `auto` (what `npm run bench` compares; not offered as a setting).
 */
export type ContextManagementMode = ContextManagementSetting | 'clearingOnly' | 'compactionOnly';

/** Clearing of old tool results by the API (context editing), before the model reads the prompt. */
export interface ClearingPolicy {
  /** The prompt size (input tokens) past which the API clears. */
  readonly atTokens: number;
  /** The most recent tool uses whose results stay. */
  readonly keepToolUses: number;
  /** The API clears nothing unless at least this many tokens go. */
  readonly clearAtLeast: number;
  /** Tools whose results are never cleared. */
  readonly keepResultsOf: readonly string[];
}

/** Compaction by the API: past `atTokens` it summarizes everything before and goes on from the summary. */
export interface CompactionPolicy {
  readonly atTokens: number;
}

export interface ContextManagement {
  readonly clearing: ClearingPolicy | undefined;
  readonly compaction: CompactionPolicy | undefined;
}

export const NO_CONTEXT_MANAGEMENT: ContextManagement = { clearing: undefined, compaction: undefined };

/*
 * The figures, and why:
 * - Compaction at 150,000 input tokens, the API's own default, and never under its documented
 *   minimum of 50,000 ("Must be at least 50,000 tokens", https://platform.claude.com/docs/en/build-with-claude/compaction,
 *   parameter table); on a smaller window, at three quarters of it so the summary still fits.
 * - Clearing at two thirds of that (100,000 on a large window, context editing's own default,
 *   https://platform.claude.com/docs/en/build-with-claude/context-editing, "Configuration options"),
 *   so clearing old results puts compaction off while the conversation's words stay whole.
 * - "Context editing invalidates cached prompt prefixes … we recommend clearing enough tokens to
 *   make the cache invalidation worthwhile" (same page, "Context editing and prompt caching"): a
 *   clearing re-writes the prompt after the first result it clears (1.25× instead of 0.1× per
 *   token) once, and saves the cleared tokens' read (0.1×) on every later request, so a clearing
 *   of at least 30% of its trigger pays for a re-written tail of its size within about four
 *   requests. Measured, that "once" does not hold: the trigger counts the whole history the
 *   client sends, so past it the API clears at every request, one result more each time, and
 *   re-writes the prompt from there (`npm run bench -- --only longConversation`: 233 clearings in
 *   301 requests; clearing alone 3.86× the cost of no management, both edits 1.21×, compaction
 *   alone 0.31×).
 * - search_tools results are never cleared: their tool_reference blocks are what loads the tools
 *   the conversation discovered, and clearing one would unload them.
 */
const API_DEFAULT_COMPACTION = 150_000;
const API_MINIMUM_COMPACTION = 50_000;
const KEEP_TOOL_USES = 4;

function compactionAt(contextWindow: number): number | undefined {
  const at = Math.min(API_DEFAULT_COMPACTION, Math.floor(contextWindow * 0.75));
  return at >= API_MINIMUM_COMPACTION ? at : undefined;
}

/**
 * What the API is asked to manage for a request to this model. Compaction only where a boundary's
 * dropped tool changes can be given back (system messages with tool changes): otherwise the tools
 * the conversation discovered would silently vanish at the first boundary.
 */
export function contextManagementFor(capabilities: ModelCapabilities, mode: ContextManagementMode): ContextManagement {
  if (mode === 'off') return NO_CONTEXT_MANAGEMENT;
  const compactAt = capabilities.compaction && capabilities.systemMessages && capabilities.toolChanges ? compactionAt(capabilities.contextWindow) : undefined;
  const clearAt = Math.floor((compactAt ?? Math.floor(capabilities.contextWindow * 0.75)) * (2 / 3));
  const clearing: ClearingPolicy | undefined = capabilities.contextEditing && mode !== 'compactionOnly'
    ? { atTokens: clearAt, keepToolUses: KEEP_TOOL_USES, clearAtLeast: Math.floor(clearAt * 0.3), keepResultsOf: [SEARCH_TOOLS_NAME] }
    : undefined;
  return { clearing, compaction: compactAt !== undefined && mode !== 'clearingOnly' ? { atTokens: compactAt } : undefined };
}
