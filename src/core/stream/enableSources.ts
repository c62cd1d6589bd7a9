import { parseToolsConfig } from '../availability';
import type { DeltaSource, StreamEvent } from './events';

/**
 * Per key, the source of the latest config delta that set where it is available: settings, a
 * promotion, or the user in this conversation (a search card's Unload, `/set tools.NAME.enable`).
 * A user delta counts only for the keys whose `enable` it sets (not a `run` change). Folding the
 * events one by one (`noteEnableSources`) lets a reader that walks the stream keep it as it goes.
 */
export function enableSources(events: readonly StreamEvent[]): Map<string, DeltaSource> {
  const sources = new Map<string, DeltaSource>();
  for (const e of events) noteEnableSources(sources, e);
  return sources;
}

export function noteEnableSources(sources: Map<string, DeltaSource>, e: StreamEvent): void {
  if (e.type !== 'config_delta') return;
  if (e.source !== 'user') {
    for (const key of Object.keys(e.tools)) sources.set(key, e.source);
    return;
  }
  for (const [key, entry] of parseToolsConfig(e.tools, 'delta').value) if (entry.availability !== undefined) sources.set(key, 'user');
}
