import { isBuiltinToolName } from '../tools/definitions';
import { configPositions } from './config';
import type { StreamEvent } from './events';

/**
 * Whether search_tools is offered: once any config position of the stream held an entry at
 * discoverable (a tool, `<server>__*` or `*`), for good (RFD 108's monotone registration).
 * Derived from the stream alone, never from which servers run now or a latch in memory, so a
 * crashed server cannot withdraw it and it is the same after a reload. Builtins' own entries
 * do not count.
 */
export function searchToolsRegistered(events: readonly StreamEvent[]): boolean {
  return configPositions(events).some((config) => [...config].some(([key, entry]) => !isBuiltinToolName(key) && entry.availability === 'discoverable'));
}

/**
 * Whether read_result is offered: once any result of the stream was kept whole by reference,
 * for good. Derived from the stream alone, like searchToolsRegistered, so it is offered after a
 * reload exactly when it was before.
 */
export function readResultRegistered(events: readonly StreamEvent[]): boolean {
  return events.some((e) => e.type === 'tool_result' && e.kept !== undefined);
}
