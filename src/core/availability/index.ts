export * from './types';
export { parseEnable, parseToolEntry, parseToolsConfig } from './parse';
export { foldConfigs, mergeEntries, resolveTool, type ToolIdentity } from './resolve';
export { applyToggle, promote, type PromotionOutcome, type ToggleDirection, type ToggleOutcome, type ToggleScope } from './toggles';
export { parseKeyAssignment, type KeyAssignment } from './keyAssignment';
export { computeToolSets, type ToolSets, type ToolSetsInput } from './sets';
export { scopeForToolKey, withServerEnable, withToolEnable, withToolRun, type ScopedValues, type SettingsScope } from './settingsWriter';
export { serversToStart, serversWithEveryToolOff, type ServerKeys } from './dormant';
