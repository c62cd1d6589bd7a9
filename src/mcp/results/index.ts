export { describeCallError } from './describeCallError';
export { shapeToolResult } from './shapeToolResult';
