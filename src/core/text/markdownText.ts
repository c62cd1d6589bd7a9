/** Text for a markdown table cell or line: pipes, backticks, brackets, angle brackets and newlines would break or inject markup. */
export function markdownText(text: string): string {
  return text.replace(/[\\|`*_[\]<>#]/g, (c) => `\\${c}`).replace(/\s+/g, ' ').trim();
}
