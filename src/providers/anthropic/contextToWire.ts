import type Anthropic from '@anthropic-ai/sdk';
import type { ContextManagement } from '../../core/context';
import type { ChatMessage } from '../../core/models';

type Config = Anthropic.Beta.Messages.BetaContextManagementConfig;
type Edit = NonNullable<Config['edits']>[number];

/** https://platform.claude.com/docs/en/build-with-claude/context-editing: "use the beta header context-management-2025-06-27". */
export const CONTEXT_EDITING_BETA = 'context-management-2025-06-27';
/** https://platform.claude.com/docs/en/build-with-claude/compaction: "Include the beta header compact-2026-01-12". */
export const COMPACTION_BETA = 'compact-2026-01-12';
/** On-demand compaction, the `compaction` request parameter: `betaHeader: compact-2026-09-04` (front matter of .../build-with-claude/compaction-background, which uses the same request). */
export const ON_DEMAND_COMPACTION_BETA = 'compact-2026-09-04';

const hasCompaction = (messages: readonly ChatMessage[]): boolean => messages.some((m) => m.role === 'assistant' && m.content.some((b) => b.type === 'compaction'));

/**
 * `context_management` and the betas it needs. Clearing comes before compaction in `edits`, so the
 * API clears first and compacts only what clearing could not save. A request that sends a
 * compaction block back carries the compaction beta even where compaction is off now (a setting
 * changed, or a model switched), since the block is read under it.
 */
export function contextManagementToWire(management: ContextManagement, messages: readonly ChatMessage[]): { readonly config: Config | undefined; readonly betas: readonly string[] } {
  const edits: Edit[] = [];
  const { clearing, compaction } = management;
  if (clearing !== undefined) {
    edits.push({
      type: 'clear_tool_uses_20250919',
      trigger: { type: 'input_tokens', value: clearing.atTokens },
      keep: { type: 'tool_uses', value: clearing.keepToolUses },
      clear_at_least: { type: 'input_tokens', value: clearing.clearAtLeast },
      exclude_tools: [...clearing.keepResultsOf],
    });
  }
  if (compaction !== undefined) edits.push({ type: 'compact_20260112', trigger: { type: 'input_tokens', value: compaction.atTokens } });
  const betas = [...(clearing !== undefined ? [CONTEXT_EDITING_BETA] : []), ...(compaction !== undefined || hasCompaction(messages) ? [COMPACTION_BETA] : [])];
  return { config: edits.length > 0 ? { edits } : undefined, betas };
}

/**
 * An on-demand compaction request: `compaction: {type: "summarize"}` with the server's own
 * summarization prompt, under its beta, and no `context_management` ("Cannot be combined with
 * `context_management`", the SDK's MessageCreateParams.compaction). "Sending the parameter
 * compacts, and nothing is sampled after the block" (the SDK's BetaCompactionConfig).
 */
export function compactNowToWire(messages: readonly ChatMessage[]): { readonly compaction: Anthropic.Beta.Messages.BetaCompactionConfig; readonly betas: readonly string[] } {
  return { compaction: { type: 'summarize' }, betas: [ON_DEMAND_COMPACTION_BETA, ...(hasCompaction(messages) ? [COMPACTION_BETA] : [])] };
}
