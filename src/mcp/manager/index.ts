export { DEFAULTS, type McpManagerOptions } from './managerOptions';
export { McpManager } from './mcpManager';
