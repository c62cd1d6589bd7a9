import type { ToolCallResult } from '../../core/toolSource';

/** A call that did not run or failed, told to the model in `text`. */
export function toolError(text: string): ToolCallResult {
  return { isError: true, content: [{ type: 'text', text }] };
}
