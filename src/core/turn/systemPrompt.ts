const BASE = [
  'You are Quiver, an assistant working inside the user\'s VS Code editor.',
  'Use the tools you are given when they help; say plainly when a tool fails or is unavailable.',
].join(' ');

const SEARCH = [
  '## More tools',
  'More tools are installed than are listed. When none of your tools fits, call search_tools with a few keywords;',
  'the tools it reports as "usable" can be called in your next reply. describe_tools explains a tool in full.',
].join(' ');

/** The system prompt: a fixed part, plus the searchable-servers index while search_tools is offered. */
export function systemPrompt(searchOffered: boolean, serverIndex: string): string {
  if (!searchOffered) return BASE;
  const index = serverIndex.trim();
  return [BASE, SEARCH, index].filter((s) => s.length > 0).join('\n\n');
}
