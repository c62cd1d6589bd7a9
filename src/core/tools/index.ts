export { combineSources, type BuiltInSource } from './combinedSource';
export { isBuiltinToolName, type JsonSchema, SEARCH_TOOLS_NAME, type ToolAnnotations, type ToolDefinition } from './definitions';
export { type CallReview, NO_REVIEW, type SignInWaiting, type ToolCallResult, type ToolResultContent, type ToolSource, type Unsubscribe } from './toolSource';
export { Emitter } from './emitter';
