export { costliestServer } from './breakdown';
export { renderOverheadReport } from './report';
export { requestUsageOf, resultCostsOf } from './requestUsage';
export { estimateToolTokens } from './tokens';
export { allItems, buildToolOverview, formatTokens, offeredSplit, type ToolOverview, type ToolOverviewItem, UNLOADED_IN_CONVERSATION, unloadedExplanation } from './toolOverview';
