/**
 * The slash commands the host understands. The webview completes exactly these, and
 * slashCommands.ts parses exactly these.
 */
export const SLASH_COMMANDS = [
  { name: 'tools', usage: '/tools', description: 'List the tools and their availability' },
  { name: 'use', usage: '/use NAME message', description: 'Send a message with tool NAME offered for this turn' },
  { name: 'set', usage: '/set KEY=VALUE', description: 'Change a chat setting' },
] as const;
