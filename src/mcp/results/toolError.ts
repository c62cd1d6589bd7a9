import type { ToolCallResult } from '../../core/tools';

/** A call that did not run or failed, told to the model in `text`. */
export function toolError(text: string): ToolCallResult {
  return { isError: true, content: [{ type: 'text', text }] };
}
