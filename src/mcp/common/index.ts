export { cleanMessage, errorText, formatSeconds, stripStackFrames } from './errorText';
export { type McpLogger } from './logger';
export { boundDescription, resultCutMarker } from './truncate';
