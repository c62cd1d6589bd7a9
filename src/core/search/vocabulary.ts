/**
 * Developer vocabulary: words and phrases that mean the same thing to someone asking for a
 * tool, but that a tool's own name and description may not use. Each group is symmetric:
 * a query containing any member also searches, at a lower weight, for every other member.
 *
 * Keep it general (jargon a developer would expect any search box to know), never tuned to
 * one catalogue or one query: a group earns its place by what it does on the held-out set
 * as much as on the development set (see `npm run bench`).
 */
export const VOCABULARY: readonly (readonly string[])[] = [
  ['issue', 'ticket', 'bug'],
  ['pull request', 'pr', 'merge request', 'mr'],
  ['repository', 'repo'],
  ['direct message', 'dm', 'private message', 'chat message'],
  ['kubernetes', 'k8s', 'kubectl'],
  ['virtual machine', 'vm', 'instance', 'droplet'],
  ['database', 'db'],
  ['directory', 'folder', 'dir'],
  ['environment variable', 'env var', 'env'],
  ['configuration', 'config', 'settings'],
  ['documentation', 'docs'],
  ['email', 'mail', 'e-mail'],
  ['delete', 'remove', 'erase', 'wipe', 'purge', 'trash'],
  ['rollback', 'roll back', 'revert', 'undo'],
  ['sprint', 'iteration', 'cycle'],
  ['meeting', 'event', 'appointment'],
  ['reschedule', 'postpone', 'move'],
  ['subscription', 'membership'],
  ['mute', 'silence', 'snooze', 'downtime'],
  ['screenshot', 'screen capture', 'screengrab'],
  ['template', 'recipe', 'boilerplate'],
  ['count', 'tally', 'how many'],
  ['xhr', 'ajax', 'network request', 'http request'],
  ['sdk', 'client library'],
  ['drain', 'evacuate', 'cordon'],
  ['cpu', 'processor'],
  ['secret', 'credential', 'password'],
  ['login', 'log in', 'sign in', 'authenticate'],
  ['image', 'picture', 'photo'],
  ['forecast', 'weather', 'rain'],
  ['directions', 'route'],
  ['logcat', 'device log'],
  ['javascript', 'js'],
  ['typescript', 'ts'],
  ['postgres', 'postgresql'],
  ['spin up', 'provision', 'create'],
];

/**
 * How people ask, mapped to how tools are named: the verbs of a spoken request ("email the
 * report", "remember that…", "show me…") and the verbs tool names use for that action.
 * One-way (a query saying `list` should not also search for `show`), weighted lower than
 * synonyms. General English usage only, never one catalogue's wording.
 */
export const REQUEST_VERBS: readonly (readonly [string, readonly string[]])[] = [
  ['email', ['send', 'mail', 'message']],
  ['text', ['send', 'message']],
  ['message', ['send']],
  ['remember', ['memory', 'store', 'observation']],
  ['note', ['memory', 'observation', 'create']],
  ['show', ['get', 'list']],
  ['show me', ['get', 'list']],
  ['tell me', ['get']],
  ['what', ['get', 'list']],
  ['look up', ['search', 'get']],
  ['lookup', ['search', 'get']],
  ['look for', ['search', 'find']],
  ['look through', ['search']],
  ['find', ['search']],
  ['grab', ['get', 'download']],
  ['fetch', ['get']],
  ['check', ['get', 'status']],
  ['add', ['create']],
  ['make', ['create']],
  ['set up', ['create']],
  ['save', ['create', 'write', 'store']],
  ['change', ['update', 'edit']],
  ['edit', ['update']],
  ['modify', ['update']],
  ['rename', ['update']],
  ['turn off', ['disable', 'update', 'toggle']],
  ['turn on', ['enable', 'update', 'toggle']],
  ['switch off', ['disable', 'update', 'toggle']],
  ['switch on', ['enable', 'update', 'toggle']],
  ['run', ['execute', 'start']],
  ['launch', ['start', 'execute']],
  ['kill', ['stop', 'terminate']],
  ['read', ['get']],
];
