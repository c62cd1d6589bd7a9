import type { Availability, ResolvedTool } from './types';

export type ToggleDirection = 'enable' | 'disable';
/** `named`: the user named this tool; `bulk`: a toggle of every tool at once. */
export type ToggleScope = 'named' | 'bulk';

export type ToggleOutcome =
  | { readonly kind: 'changed'; readonly availability: Availability }
  | { readonly kind: 'unchanged'; readonly reason: 'already' | 'not-toggleable-in-bulk' }
  | { readonly kind: 'refused'; readonly message: string };

/** RFD 108's directive table: enable moves off and discoverable to on; disable moves both others to off. */
function target(direction: ToggleDirection, from: Availability): Availability {
  if (direction === 'enable') return 'on';
  return from === 'on' || from === 'discoverable' ? 'off' : from;
}

/** Applies one toggle to one resolved tool, honouring its allow_toggle. */
export function applyToggle(toolName: string, tool: Pick<ResolvedTool, 'availability' | 'allowToggle'>, direction: ToggleDirection, scope: ToggleScope): ToggleOutcome {
  const permitted = tool.allowToggle === 'any' || (scope === 'named' && tool.allowToggle !== 'never');
  if (!permitted) {
    if (scope === 'named') {
      return { kind: 'refused', message: `${toolName} is locked (allow_toggle is "never"): change its "enable" in settings.json to move it.` };
    }
    return { kind: 'unchanged', reason: 'not-toggleable-in-bulk' };
  }
  const next = target(direction, tool.availability);
  return next === tool.availability ? { kind: 'unchanged', reason: 'already' } : { kind: 'changed', availability: next };
}

export type PromotionOutcome = 'applied' | 'already-on' | 'skipped';

/**
 * The one transition search_tools may cause: discoverable to on. Evaluated against the
 * folded state at the search call's own position, so it can never undo a disable.
 */
export function promote(availability: Availability): PromotionOutcome {
  if (availability === 'discoverable') return 'applied';
  return availability === 'on' ? 'already-on' : 'skipped';
}
