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
