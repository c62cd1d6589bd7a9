import { parseToolsConfig } from './parse';
import { resolveTool, type ToolIdentity } from './resolve';
import { mergeScopedValues, type ScopedValues, type SettingsScope } from './scopedValues';
import { applySettingsEdit, serverEnableEdits, type SettingsEdit } from './settingsWriter';
import type { Availability } from './types';

/** One tool whose availability a settings write changes. */
export interface AvailabilityChange {
  readonly name: string;
  readonly from: Availability;
  readonly to: Availability;
}

/**
 * What `edits` to `scope`'s `quiver.tools` change in each of `tools`' availability, as settings
 * resolve it (a conversation's own changes aside), in the order of `tools`.
 */
export function availabilityChanges(values: ScopedValues, scope: SettingsScope, edits: readonly SettingsEdit[], tools: readonly ToolIdentity[]): AvailabilityChange[] {
  const before = parseToolsConfig(mergeScopedValues(values)).value;
  const after = parseToolsConfig(mergeScopedValues({ ...values, [scope]: edits.reduce<unknown>(applySettingsEdit, values[scope]) })).value;
  return tools.flatMap((tool) => {
    const from = resolveTool(before, tool).availability;
    const to = resolveTool(after, tool).availability;
    return from === to ? [] : [{ name: tool.name, from, to }];
  });
}

/** What a whole-server toggle (serverEnableEdits) would change for `tools`, the server's tools; nothing is written. */
export function serverToggleChanges(values: ScopedValues, scope: SettingsScope, server: string, toolKeys: readonly string[], tools: readonly ToolIdentity[], availability: Availability): AvailabilityChange[] {
  return availabilityChanges(values, scope, serverEnableEdits(values, scope, server, toolKeys, availability), tools);
}

/**
 * The changes to tools outside the group the toggle was made from: a right-click on a server row
 * under Off looks like it is about the tools under Off, so these are what the user did not see
 * coming and is asked about first.
 */
export function changesOutside(changes: readonly AvailabilityChange[], group: Availability): AvailabilityChange[] {
  return changes.filter((c) => c.from !== group);
}

const GROUP: Readonly<Record<Availability, string>> = { on: 'On', discoverable: 'Discoverable', off: 'Off' };
const ACTION: Readonly<Record<Availability, string>> = { on: 'Make On', discoverable: 'Make Discoverable', off: 'Make Off' };
const SCOPE: Readonly<Record<SettingsScope, string>> = { user: 'your User settings', workspace: "this workspace's settings", workspaceFolder: "this folder's settings" };
/** A modal dialog holds this many lines per list; the rest are counted. */
const LISTED = 12;

/** The modal asking before a server toggle changes tools outside `group`: its question, its details and the button that goes ahead. */
export interface ToggleConfirmation {
  readonly message: string;
  readonly detail: string;
  readonly action: string;
}

export function serverToggleConfirmation(server: string, availability: Availability, group: Availability, changes: readonly AvailabilityChange[], scope: SettingsScope): ToggleConfirmation {
  const outside = changesOutside(changes, group);
  const inside = changes.filter((c) => c.from === group);
  const count = (n: number): string => `${n} tool${n === 1 ? '' : 's'}`;
  const sections = [
    `Not under ${GROUP[group]}:\n${listed(outside)}`,
    ...(inside.length > 0 ? [`Under ${GROUP[group]}:\n${listed(inside)}`] : []),
    `Written to ${SCOPE[scope]}.`,
  ];
  return {
    message: `Make every tool of ${server} ${availability}? This also changes ${count(outside.length)} not under ${GROUP[group]}.`,
    detail: sections.join('\n\n'),
    action: ACTION[availability],
  };
}

/** By name, so the same change always reads the same. */
function listed(changes: readonly AvailabilityChange[]): string {
  const sorted = [...changes].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const lines = sorted.slice(0, LISTED).map((c) => `${c.name}: ${c.from} → ${c.to}`);
  if (changes.length > LISTED) lines.push(`… and ${changes.length - LISTED} more`);
  return lines.join('\n');
}
