import type { AssistantBlock } from '../stream/events';
import type { ToolDefinition } from '../tools/definitions';

type ToolUse = Extract<AssistantBlock, { type: 'tool_use' }>;

export interface IndexedCall {
  readonly call: ToolUse;
  /** Position of the call in the reply: results fold in this order whatever order they finish in. */
  readonly index: number;
}

/**
 * Splits a reply's calls into groups that run one after another. Consecutive calls of MCP
 * tools that declare `readOnlyHint` share a group and may run at once: reading cannot change
 * what a neighbour reads. Every other call is a group of its own, so a write still happens
 * after the calls before it and before the calls after it, as the model wrote them.
 */
export function callGroups(calls: readonly ToolUse[], permitted: readonly ToolDefinition[]): IndexedCall[][] {
  const readOnly = new Set(permitted.filter((t) => t.server !== undefined && t.annotations?.readOnlyHint === true).map((t) => t.name));
  const groups: IndexedCall[][] = [];
  let open: IndexedCall[] | undefined;
  calls.forEach((call, index) => {
    if (!readOnly.has(call.name)) {
      open = undefined;
      groups.push([{ call, index }]);
    } else if (open === undefined) {
      open = [{ call, index }];
      groups.push(open);
    } else {
      open.push({ call, index });
    }
  });
  return groups;
}
