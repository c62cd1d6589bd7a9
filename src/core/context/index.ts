export { lastCompactionBoundary, segmentStart } from './boundary';
export { clearedNote, keptAfterCompaction } from './clearedNote';
export { attachmentsBefore, nextPromptEstimate, segmentOpening, SUMMARY_INSTRUCTION, withSummaryInstruction } from './ownCompaction';
export { compactionFormFor, contextManagementFor, NO_CONTEXT_MANAGEMENT, type ClearingPolicy, type CompactionForm, type CompactionPolicy, type ContextManagement, type ContextManagementMode, type ContextManagementSetting } from './policy';
export { type CacheTtl } from './cacheTtl';
export { CONTEXT_FILL_WARNING, type ContextFill, contextFillOf, contextFillText, isContextFillWarning } from './fill';
