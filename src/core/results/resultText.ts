import { tokensOfChars } from '../overhead/tokens';
import type { ToolResultContent } from '../tools/toolSource';

type Image = Extract<ToolResultContent, { type: 'image' }>;

/**
 * Estimated tokens one image costs the model: the Messages API scales an image to at most about
 * 1.15 megapixels and bills width × height / 750, so about 1,600 at most (Anthropic's vision
 * docs). An image's size in pixels is not known here, so each counts as the most it can cost.
 */
export const IMAGE_TOKENS = 1_600;

/** How an image stands in a result's text: its type and size, never its data. */
export function imageLine(image: Image): string {
  return `[image ${image.mimeType}, ${Math.floor((image.data.length * 3) / 4).toLocaleString('en-US')} bytes]`;
}

/**
 * A result as one text: its text blocks in order, each starting on a line of its own, and each
 * image as a line naming its type and size. What a view counts lines and characters of, what
 * read_result pages and searches, and what the editor shows, so all three agree.
 */
export function resultText(content: readonly ToolResultContent[]): string {
  return content.map((c) => (c.type === 'text' ? c.text : imageLine(c))).join('\n');
}

export function imagesOf(content: readonly ToolResultContent[]): Image[] {
  return content.filter((c): c is Image => c.type === 'image');
}

/** Estimated tokens of a result as the model would get it whole. */
export function estimateResultTokens(content: readonly ToolResultContent[]): number {
  const chars = content.reduce((n, c) => n + (c.type === 'text' ? c.text.length : 0), 0);
  return tokensOfChars(chars) + IMAGE_TOKENS * imagesOf(content).length;
}
