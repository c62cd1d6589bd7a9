import type { WireTool } from '../stream/events';
import type { ToolDefinition } from '../tools/definitions';
import { wireInputSchema } from './wireSchema';

/** A definition as the wire sends it, or undefined when its schema cannot be sent (see wireInputSchema). */
export function wireToolOf(tool: ToolDefinition): WireTool | undefined {
  const { schema, issue } = wireInputSchema(tool.inputSchema);
  return issue === undefined ? { name: tool.name, description: tool.description, inputSchema: schema } : undefined;
}
