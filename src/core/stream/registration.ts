import { resolveTool } from '../availability';
import type { ToolDefinition } from '../tools';
import { configPositions } from './config';
import type { StreamEvent } from './events';

/**
 * Whether search_tools is offered: once any config position of the stream held an MCP tool
 * at discoverable, for good (RFD 108's monotone registration). Derived from the stream on
 * every call, never latched, so it is the same after a reload. Builtins do not count.
 */
export function searchToolsRegistered(events: readonly StreamEvent[], catalogue: readonly ToolDefinition[]): boolean {
  const mcpTools = catalogue.filter((t) => t.server !== undefined);
  return configPositions(events).some((config) => mcpTools.some((tool) => resolveTool(config, tool).availability === 'discoverable'));
}
