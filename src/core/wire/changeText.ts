/** What the model reads of an appended tool change; fixed wording, so a replay sends the same bytes. */

const list = (names: readonly string[]): string => names.join(', ');

export function useText(name: string): string {
  return `The user asks you to use the tool ${name} for this message (/use ${name}). Call it before you answer, unless it plainly cannot help.`;
}

export function useDoneText(names: readonly string[]): string {
  return `${list(names)} was offered for an earlier message only (/use) and is withdrawn. Do not call it.`;
}

export function turnedOnText(names: readonly string[]): string {
  return `Now available (turned on in the editor): ${list(names)}.`;
}

/** A builtin of Quiver's that the conversation now needs (search_tools once a tool is discoverable, read_result once a result was kept). */
export function builtinsOnText(names: readonly string[]): string {
  return `Now available (Quiver's own ${names.length === 1 ? 'tool' : 'tools'}, for what this conversation now holds): ${list(names)}.`;
}

export function turnedOffText(names: readonly string[]): string {
  return `No longer available (turned off in the editor): ${list(names)}. Do not call ${names.length === 1 ? 'it' : 'them'}; a call would be refused.`;
}

export function serverGoneText(names: readonly string[]): string {
  return `No longer available (their MCP server stopped or no longer lists them): ${list(names)}. Do not call them.`;
}

export function catalogueText(systemPrompt: string): string {
  return `The tools installed in the editor changed. These instructions replace the earlier ones:\n\n${systemPrompt}`;
}

/** After a compaction boundary: the tools the conversation had (found by search, turned on) that the boundary dropped. */
export function compactionRestoredText(names: readonly string[]): string {
  return `Still available after the summary (this conversation had ${names.length === 1 ? 'it' : 'them'} before): ${list(names)}.`;
}

/** Tools Quiver loaded because the user's message matched them closely (quiver.search.preload). */
export function preloadText(names: readonly string[]): string {
  return `Loaded for this message (it matched them): ${list(names)}.`;
}
