export * from './types';
export { parseEnable, parseToolEntry, parseToolsConfig } from './parse';
export { foldConfigs, issueTurningOff, mergeEntries, resolveTool, type ToolIdentity } from './resolve';
export { applyToggle, promote, type PromotionOutcome, type ToggleDirection, type ToggleOutcome, type ToggleScope } from './toggles';
export { parseKeyAssignment, type KeyAssignment } from './keyAssignment';
export { computeToolSets, type ToolSets, type ToolSetsInput } from './sets';
export { applySettingsEdit, enableEdits, runEdits, scopeForToolKey, serverEnableEdits, type ScopedValues, type SettingsEdit, type SettingsScope } from './settingsWriter';
export { serversToStart, serversWithEveryToolOff, type ServerKeys } from './dormant';
