import type { GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';

/** What a prompt puts in the user's message: its text, and the resources it embeds as attachments. */
export interface PromptContent {
  readonly text: string;
  readonly resources: readonly ResourceText[];
}

export interface ResourceText {
  readonly uri: string;
  readonly mimeType: string | undefined;
  readonly text: string;
}

/**
 * A prompt's messages as one user message. A prompt that scripts both sides of an exchange has
 * its assistant turns quoted under a heading: the conversation's own history stays the model's.
 */
export function promptContent(result: GetPromptResult): PromptContent {
  const resources: ResourceText[] = [];
  const twoSided = result.messages.some((m) => m.role === 'assistant');
  const parts = result.messages.map((m) => {
    const c = m.content;
    const body =
      c.type === 'text' ? c.text
      : c.type === 'resource' ? (resources.push(...resourceTexts({ contents: [c.resource] })), `(attached: ${c.resource.uri})`)
      : c.type === 'resource_link' ? `Resource: ${c.uri}`
      : `(${c.type} content from the prompt is not shown)`;
    return twoSided ? `${m.role === 'user' ? 'User' : 'Assistant'}:\n${body}` : body;
  });
  return { text: parts.join('\n\n'), resources };
}

/** The text of what `resources/read` returned; a binary part is named, not decoded. */
export function resourceTexts(result: Pick<ReadResourceResult, 'contents'>): ResourceText[] {
  return result.contents.map((c) => ({
    uri: c.uri,
    mimeType: c.mimeType,
    text: 'text' in c && typeof c.text === 'string' ? c.text : `(binary content, ${c.mimeType ?? 'unknown type'}, not attached as text)`,
  }));
}
