import type { RestingServers } from '../config/restingServers';
import type { ServerState } from './serverStatus';

/**
 * What a change of the resting sets from `before` to `now` asks of server `name` in `state`:
 * `rest` (every tool of it turned off: it stops, unless already off, and forgets it was woken),
 * `wake` (turned back on or discoverable from off: started, as that edit asks, rather than left
 * idle on its cache), `start` (idle, and one of its tools is on now: it is offered up front, so the
 * server should be up), or `stay`.
 */
export function restingStep(name: string, state: ServerState, before: RestingServers, now: RestingServers): 'rest' | 'wake' | 'start' | 'stay' {
  const off = now.off.has(name);
  if (off && !before.off.has(name)) return 'rest';
  if (!off && before.off.has(name) && state === 'off') return 'wake';
  if (!now.idle.has(name) && state === 'idle') return 'start';
  return 'stay';
}
