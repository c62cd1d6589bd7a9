import { enableSources } from '../stream/enableSources';
import type { StreamEvent } from '../stream/events';
import { planTools, type ToolPlan, type ToolPlanInput } from './toolPlan';
import { settingsChange } from './turnStart';

/**
 * The sets the next request will use: the stream plus the settings difference the next turn
 * start will record. What the Tools view and the status bar show, so they agree with the
 * request before a first turn and right after a settings edit.
 */
export function upcomingPlan(input: ToolPlanInput & { readonly settingsTools: unknown }): ToolPlan {
  const pending = settingsChange(input.events, input.settingsTools, '');
  return pending.length === 0 ? planTools(input) : planTools({ ...input, events: [...input.events, ...pending] });
}

/** Tools a search promoted in this stream that are still on in `plan`. */
export function promotedTools(events: readonly StreamEvent[], plan: ToolPlan): ReadonlySet<string> {
  const promoted = new Set<string>();
  for (const e of events) {
    if (e.type !== 'config_delta' || e.source !== 'promotion') continue;
    for (const name of Object.keys(e.tools)) if (plan.resolved.get(name)?.availability === 'on') promoted.add(name);
  }
  return promoted;
}

/**
 * Tools this conversation itself took out (a search card's Unload, `/set tools.NAME.enable=off`)
 * that are still not on in `plan`: the latest delta naming them was the user's in this
 * conversation, not settings. Settings may say otherwise; only this conversation is affected.
 * `settingsTools`: settings as they are now, when `plan` is an upcomingPlan over them.
 */
export function unloadedTools(events: readonly StreamEvent[], plan: ToolPlan, settingsTools?: unknown): ReadonlySet<string> {
  // A settings edit the next turn start will record has the last word over an earlier unload, as in upcomingPlan.
  const upcoming = settingsTools === undefined ? events : [...events, ...settingsChange(events, settingsTools, '')];
  const unloaded = new Set<string>();
  for (const [name, source] of enableSources(upcoming)) {
    const resolved = plan.resolved.get(name);
    if (source === 'user' && resolved !== undefined && resolved.availability !== 'on') unloaded.add(name);
  }
  return unloaded;
}
