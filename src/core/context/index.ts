export { lastCompactionBoundary } from './boundary';
export { clearedNote, keptAfterCompaction } from './clearedNote';
export { contextManagementFor, NO_CONTEXT_MANAGEMENT, type ClearingPolicy, type CompactionPolicy, type ContextManagement, type ContextManagementMode, type ContextManagementSetting } from './policy';
export { type CacheTtl } from './cacheTtl';
export { CONTEXT_FILL_WARNING, type ContextFill, contextFillOf, contextFillText, isContextFillWarning } from './fill';
