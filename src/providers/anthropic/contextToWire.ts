import type Anthropic from '@anthropic-ai/sdk';
import type { ContextManagement } from '../../core/context';
import type { ChatMessage } from '../../core/models';

type Config = Anthropic.Beta.Messages.BetaContextManagementConfig;
type Edit = NonNullable<Config['edits']>[number];

/** https://platform.claude.com/docs/en/build-with-claude/context-editing: "use the beta header context-management-2025-06-27". */
export const CONTEXT_EDITING_BETA = 'context-management-2025-06-27';
/** https://platform.claude.com/docs/en/build-with-claude/compaction: "Include the beta header compact-2026-01-12". */
export const COMPACTION_BETA = 'compact-2026-01-12';

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
