import { parseChatSnapshot, type ChatSnapshot, type WebviewToHost } from '../src/protocol';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

/** The render cache: never authoritative, replaced by the host's snapshot after every load. */
interface CachedState {
  readonly snapshot: ChatSnapshot | null;
  readonly draft: string;
}

const api = acquireVsCodeApi();

export function post(msg: WebviewToHost): void {
  api.postMessage(msg);
}

export function loadCache(): CachedState {
  const raw = api.getState();
  if (typeof raw !== 'object' || raw === null) return { snapshot: null, draft: '' };
  const rec = raw as { snapshot?: unknown; draft?: unknown };
  const parsed = parseChatSnapshot(rec.snapshot);
  return { snapshot: parsed.ok ? parsed.value : null, draft: typeof rec.draft === 'string' ? rec.draft : '' };
}

export function saveCache(state: CachedState): void {
  api.setState(state);
}
