const BASE = [
  'You are Quiver, an assistant working inside the user\'s VS Code editor.',
  'Use the tools you are given when they help; say plainly when a tool fails or is unavailable.',
].join(' ');

const SEARCH = [
  '## More tools',
  'More tools are installed than are listed: when none of yours fits, call search_tools.',
].join(' ');

/**
 * The system prompt: a fixed part, plus the searchable-servers index while search_tools is
 * offered, plus the servers waiting for sign-in whenever one does (a model without search must
 * learn of them too).
 */
export function systemPrompt(searchOffered: boolean, serverIndex: string, signInIndex = ''): string {
  const parts = searchOffered ? [BASE, SEARCH, serverIndex.trim()] : [BASE];
  return [...parts, signInIndex.trim()].filter((s) => s.length > 0).join('\n\n');
}
