import { splitWords } from './tokenize';

/**
 * What a request asks done to its object, or what a tool does to it, coarsely. A tool whose name
 * says one of these and a request that asks another rarely go together: "find the matching issue"
 * is not `update_issue`, however much its description talks about issues.
 */
export type Action = 'read' | 'create' | 'update' | 'delete' | 'send' | 'run';

// The verbs tool names begin with (or carry after a prefix: `API-post-page`), by action. General
// English usage, never one catalogue's wording; a name without any of them has no action.
const TOOL_VERB_LIST: Readonly<Record<string, Action>> = {
  get: 'read', list: 'read', search: 'read', find: 'read', fetch: 'read', read: 'read', retrieve: 'read', query: 'read',
  describe: 'read', view: 'read', show: 'read', lookup: 'read', browse: 'read', download: 'read', export: 'read',
  check: 'read', count: 'read', inspect: 'read',
  create: 'create', add: 'create', new: 'create', insert: 'create', post: 'create', write: 'create', make: 'create',
  append: 'create', upload: 'create', import: 'create',
  update: 'update', edit: 'update', modify: 'update', patch: 'update', set: 'update', change: 'update', rename: 'update',
  move: 'update', replace: 'update', toggle: 'update', enable: 'update', disable: 'update', assign: 'update',
  delete: 'delete', remove: 'delete', destroy: 'delete', drop: 'delete', cancel: 'delete', archive: 'delete', purge: 'delete',
  send: 'send', reply: 'send', forward: 'send', notify: 'send',
  run: 'run', execute: 'run', start: 'run', trigger: 'run', invoke: 'run', launch: 'run',
};

// How people open a request: the tool verbs, questions (which asks to read), and the spoken verbs
// for each action ("draft a reply", "push the meeting to 4pm", "email the report").
const REQUEST_WORD_LIST: Readonly<Record<string, Action>> = {
  ...TOOL_VERB_LIST,
  look: 'read', which: 'read', what: 'read', whats: 'read', how: 'read', is: 'read', are: 'read', does: 'read',
  summarize: 'read', tell: 'read', who: 'read', when: 'read', where: 'read',
  draft: 'create', log: 'create', remember: 'create', note: 'create', save: 'create', open: 'create', file: 'create',
  push: 'update', postpone: 'update', reschedule: 'update', turn: 'update', switch: 'update', mark: 'update', close: 'update', resolve: 'update',
  email: 'send', text: 'send', message: 'send', ping: 'send',
  kill: 'run', stop: 'run',
};

// Maps, not the objects: a word such as "constructor" must not find Object.prototype's.
const TOOL_VERBS: ReadonlyMap<string, Action> = new Map(Object.entries(TOOL_VERB_LIST));
const REQUEST_WORDS: ReadonlyMap<string, Action> = new Map(Object.entries(REQUEST_WORD_LIST));

/**
 * Requests say what they want near the start ("Find…", "Which issues…", "Can you delete…"); a
 * verb further in is more often part of the object ("the page that lists…"). Chosen on the
 * development queries: 3 and 5 rank alike, 1 and 2 lower (`npm run bench`, search ablations).
 */
const REQUEST_LEAD_WORDS = 3;

/** The action a tool's name says it takes: its first word that is a known verb; undefined when none is. */
export function toolAction(toolName: string): Action | undefined {
  for (const word of splitWords(toolName)) {
    const action = TOOL_VERBS.get(word);
    if (action !== undefined) return action;
  }
  return undefined;
}

/** The action a request asks for: the first of its lead words that says one; undefined when none does. */
export function requestAction(query: string): Action | undefined {
  for (const word of splitWords(query).slice(0, REQUEST_LEAD_WORDS)) {
    const action = REQUEST_WORDS.get(word);
    if (action !== undefined) return action;
  }
  return undefined;
}
