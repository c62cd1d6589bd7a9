import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type { AnswerElicitation } from '../core/elicitation';
import { formFields } from '../core/elicitation';

/**
 * Answers one `elicitation/create` through `answer`. A form whose schema Quiver cannot show is
 * declined with no one asked (the spec's schemas are flat primitives); the SDK then checks the
 * accepted content against the schema and fills in its defaults.
 */
export async function answerElicitRequest(server: string, params: ElicitRequest['params'], answer: AnswerElicitation, signal: AbortSignal): Promise<ElicitResult> {
  if (params.mode === 'url') {
    const result = await answer({ mode: 'url', server, message: params.message, url: params.url }, signal);
    return result.action === 'accept' ? { action: 'accept' } : result;
  }
  const form = formFields(params.requestedSchema);
  if ('error' in form) return { action: 'decline' };
  const result = await answer({ mode: 'form', server, message: params.message, fields: form.fields }, signal);
  return result.action === 'accept' ? { action: 'accept', content: { ...result.content } as NonNullable<ElicitResult['content']> } : result;
}
