export { SEARCH_BUILTINS, SEARCH_TOOLS_DEFINITION, DESCRIBE_TOOLS_DEFINITION } from './builtins';
export { describeTools, type ToolDoc, type ParameterDoc } from './describeTools';
export { closeToBest, RELEVANCE_RATIO, splitByLoadBudget, type LoadSplit, type Relevance } from './loadBudget';
export { searchTools, clampLimit, type OtherTools, type SearchToolsHit, type SearchToolsOutput } from './searchTools';
export { renderServerIndex, renderSignInIndex, type ServerIndexEntry, type ServerIndexOptions } from './serverIndex';
export { summarize } from './summary';
export { ToolIndex, DEFAULT_RANKING, type RankingOptions, type SearchOutcome, type SearchRequest, type SyncResult } from './toolIndex';
export type { BuiltinResult } from './result';
export { confidentMatches, PRELOAD_MARGIN, PRELOAD_MAX, PRELOAD_MIN_SCORE, type SearchPreloadSetting } from './preload';
