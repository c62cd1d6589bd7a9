import type { ModelCapabilities } from '../../core/models';

/**
 * How tool availability reaches the wire for one model, from what it accepts:
 * - deferred: the tools array stays as first sent; promotions are deferred tools loaded by
 *   `tool_reference`, other changes `tool_addition` / `tool_removal` in appended system
 *   messages (toolChanges), or, without tool changes, appended text only: a tool turned off
 *   stays defined but is refused when called, and one turned on waits for a new chat. A
 *   conversation whose first request sent no tool up front sends no `tools` at all (deferred
 *   tools alone are refused); with tool changes its tools are defined inline (toWire.ts).
 * - rewriting (no tool search, or the `toolsArray` setting for gateways without it): the tools
 *   array is what is offered now; on a model with preserved thinking the API is asked to drop
 *   thinking blocks whose prefix that changed rather than fail the request.
 */
/** `quiver.anthropic.promotionRendering`: `toolsArray` is for gateways without deferred tools. */
export type PromotionRendering = 'toolReference' | 'toolsArray';

export interface ToolsRendering {
  readonly deferred: boolean;
  readonly references: boolean;
  readonly toolChanges: boolean;
  readonly systemMessages: boolean;
  readonly dropStaleThinking: boolean;
}

export function toolsRendering(capabilities: ModelCapabilities, setting: PromotionRendering): ToolsRendering {
  const deferred = capabilities.toolSearch && setting === 'toolReference';
  return {
    deferred,
    references: deferred,
    toolChanges: deferred && capabilities.toolChanges && capabilities.systemMessages,
    systemMessages: capabilities.systemMessages,
    dropStaleThinking: !deferred && capabilities.preservedThinking,
  };
}
