import { createHash } from 'node:crypto';
import Anthropic from '@anthropic-ai/sdk';
import { EFFORTS, type ModelCapabilities } from '../../core/models';
import { fallbackCapabilities, isTableModel, TABLE_MODEL_IDS } from './modelTable';

/** One model as the "Choose Model" list shows it. */
export interface ModelSummary {
  readonly id: string;
  readonly displayName: string;
  readonly contextWindow: number;
  readonly maxTokens: number;
}

export interface ModelListing {
  readonly models: readonly ModelSummary[];
  readonly source: ModelCapabilities['source'];
  /** Why `/v1/models` could not be read, when the list is the built-in table's. */
  readonly problem?: string;
}

/**
 * `ModelInfo` as it may arrive: a proxy or an older API version can leave any field out, and a
 * missing field must fall back to the table rather than read as "not supported".
 */
type Loose<T> = T extends readonly unknown[] ? T : T extends object ? { readonly [K in keyof T]?: Loose<T[K]> | null } : T;
type Info = Loose<Anthropic.Models.ModelInfo>;

type Listed =
  | { readonly ok: true; readonly models: ReadonlyMap<string, Info> }
  | { readonly ok: false; readonly problem: string; readonly retryAt: number };

/** The list call has its own bound: a request waiting on it falls back to the table instead. */
const LIST_TIMEOUT_MS = 10_000;
/** After a failure that may pass (network, 5xx, 429, a key being fixed), the list is asked again no sooner than this. */
const RETRY_AFTER_MS = 60_000;
/** Distinct base URL + key pairs kept; a key change makes a new pair, so old ones age out. */
const MAX_SHARED = 8;

/** What one base URL + key pair has learnt of its models list; shared by every catalog over that pair. */
class ListState {
  listed: Listed | undefined;
  pending: Promise<Listed> | undefined;
  /** Aliases the list does not name (`claude-sonnet-4-5` → its dated snapshot), resolved one by one. */
  readonly retrieved = new Map<string, Promise<Info | undefined>>();
}

const shared = new Map<string, ListState>();

/** The state of `client`'s base URL and key (the key only as a hash), most recently used last so the oldest pair is dropped first. */
function stateOf(client: Anthropic | undefined): ListState {
  const key = client ? `${client.baseURL}\0${createHash('sha256').update(client.apiKey ?? client.authToken ?? '').digest('hex')}` : '';
  const found = shared.get(key) ?? new ListState();
  shared.delete(key);
  shared.set(key, found);
  for (const old of shared.keys()) {
    if (shared.size <= MAX_SHARED) break;
    shared.delete(old);
  }
  return found;
}

/**
 * What each model accepts, from the API's own models list (`/v1/models`, through the SDK),
 * merged over the built-in table: thinking types, effort levels, `max_tokens` and the context
 * window from the API, the rest (which the list does not describe) from the table. The list is
 * read once per base URL and key, whatever the number of clients or catalogs made for them (a
 * client per request is the extension's way); when it cannot be read (no key yet, a proxy
 * without the endpoint, no network), the table answers. Never rejects.
 */
export class ModelCatalog {
  private readonly state: ListState;

  constructor(
    private readonly client: Anthropic | undefined,
    private readonly now: () => number = Date.now,
  ) {
    this.state = stateOf(client);
  }

  async capabilities(model: string, signal: AbortSignal): Promise<ModelCapabilities> {
    const info = await orWhenAborted(this.infoOf(model), signal, undefined);
    return info ? mergedCapabilities(model, info) : fallbackCapabilities(model);
  }

  async ids(signal: AbortSignal): Promise<readonly string[]> {
    return (await this.models(signal)).models.map((m) => m.id);
  }

  /** Every model the API lists (newest first), else the table's; `refresh` reads the list again. */
  async models(signal: AbortSignal, options: { readonly refresh?: boolean } = {}): Promise<ModelListing> {
    if (options.refresh) this.state.listed = undefined;
    const listed = await orWhenAborted(this.list(), signal, { ok: false, problem: 'cancelled', retryAt: 0 } as const);
    if (listed.ok) return { models: [...listed.models].map(([id, info]) => summaryOf({ ...info, id })), source: 'models_api' };
    return { models: TABLE_MODEL_IDS.map((id) => summaryOf({ id })), source: 'fallback_table', problem: listed.problem };
  }

  private async infoOf(model: string): Promise<Info | undefined> {
    const listed = await this.list();
    if (!listed.ok) return undefined;
    return listed.models.get(model) ?? this.retrieve(model);
  }

  private list(): Promise<Listed> {
    const { state } = this;
    const listed = state.listed;
    if (listed && (listed.ok || this.now() < listed.retryAt)) return Promise.resolve(listed);
    state.pending ??= this.read().then((result) => {
      state.listed = result;
      state.pending = undefined;
      return result;
    });
    return state.pending;
  }

  private async read(): Promise<Listed> {
    if (!this.client) return { ok: false, problem: 'no API key is set', retryAt: Number.POSITIVE_INFINITY };
    try {
      const models = new Map<string, Info>();
      for await (const info of this.client.models.list({ limit: 1000 }, { maxRetries: 0, timeout: LIST_TIMEOUT_MS })) {
        const loose: Info = info;
        if (typeof loose.id === 'string') models.set(loose.id, loose);
      }
      return { ok: true, models };
    } catch (err) {
      // A proxy without the endpoint will not grow one: stop asking. Anything else may pass.
      const retryAt = err instanceof Anthropic.NotFoundError ? Number.POSITIVE_INFINITY : this.now() + RETRY_AFTER_MS;
      return { ok: false, problem: problemOf(err), retryAt };
    }
  }

  private retrieve(model: string): Promise<Info | undefined> {
    const { client, state } = this;
    if (!client) return Promise.resolve(undefined);
    let found = state.retrieved.get(model);
    if (!found) {
      found = client.models.retrieve(model, {}, { maxRetries: 0, timeout: LIST_TIMEOUT_MS }).then(
        (info): Info => info,
        (err: unknown) => {
          // Only "no such model" is final; a passing failure is asked again next time.
          if (!(err instanceof Anthropic.NotFoundError)) state.retrieved.delete(model);
          return undefined;
        },
      );
      state.retrieved.set(model, found);
    }
    return found;
  }
}

/** The table's row for the model, with what the API says in place of its thinking, effort and limits. */
function mergedCapabilities(model: string, info: Info): ModelCapabilities {
  const table = fallbackCapabilities(isTableModel(model) || typeof info.id !== 'string' ? model : info.id);
  const caps = info.capabilities;
  const types = caps?.thinking?.types;
  const effort = caps?.effort;
  const flag = (value: Loose<Anthropic.Models.CapabilitySupport> | null | undefined, fallback: boolean): boolean =>
    typeof value?.supported === 'boolean' ? value.supported : fallback;
  return {
    ...table,
    id: model,
    thinking: {
      supported: flag(caps?.thinking, table.thinking.supported),
      adaptive: flag(types?.adaptive, table.thinking.adaptive),
      betweenTools: flag(types?.between_tools, table.thinking.betweenTools),
      disabled: flag(types?.disabled, table.thinking.disabled),
    },
    efforts: typeof effort?.supported !== 'boolean' ? table.efforts : effort.supported ? EFFORTS.filter((level) => effort[level]?.supported === true) : [],
    maxTokens: positive(info.max_tokens) ?? table.maxTokens,
    contextWindow: positive(info.max_input_tokens) ?? table.contextWindow,
    source: 'models_api',
  };
}

function summaryOf(info: Info & { readonly id: string }): ModelSummary {
  const table = fallbackCapabilities(info.id);
  return {
    id: info.id,
    displayName: typeof info.display_name === 'string' && info.display_name !== '' ? info.display_name : displayNameOf(info.id),
    contextWindow: positive(info.max_input_tokens) ?? table.contextWindow,
    maxTokens: positive(info.max_tokens) ?? table.maxTokens,
  };
}

/** `claude-sonnet-5-5` → `Claude Sonnet 5.5`, for the table's models, which carry no display name. */
function displayNameOf(id: string): string {
  const words = id.split('-');
  const version = words.filter((w) => /^\d+$/.test(w)).join('.');
  const name = words.filter((w) => !/^\d+$/.test(w)).map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' ');
  return version === '' ? name : `${name} ${version}`;
}

function positive(value: number | null | undefined): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
}

/** Why the list could not be read, in a few words for the QuickPick and the log (never the key). */
function problemOf(err: unknown): string {
  if (err instanceof Anthropic.APIConnectionTimeoutError) return 'the models list did not answer in time';
  if (err instanceof Anthropic.APIConnectionError) return 'the API could not be reached';
  if (err instanceof Anthropic.NotFoundError) return 'this endpoint has no models list (404)';
  if (err instanceof Anthropic.AuthenticationError) return 'the API key was refused (401)';
  if (err instanceof Anthropic.APIError) return `the models list answered ${err.status ?? 'with an error'}`;
  return err instanceof Error ? err.message : String(err);
}

/** `work`, or `fallback` as soon as `signal` aborts: a caller that gives up gets the table's answer, never a rejection. */
function orWhenAborted<T>(work: Promise<T>, signal: AbortSignal, fallback: T): Promise<T> {
  if (signal.aborted) return Promise.resolve(fallback);
  return new Promise<T>((resolve) => {
    const onAbort = (): void => resolve(fallback);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      () => {
        signal.removeEventListener('abort', onAbort);
        resolve(fallback);
      },
    );
  });
}

/** The shared catalog for a key and base URL, for callers outside the provider (the "Choose Model" command). */
export function catalogFor(options: { readonly apiKey: string | undefined; readonly baseURL?: string }): ModelCatalog {
  return new ModelCatalog(options.apiKey ? new Anthropic({ apiKey: options.apiKey, maxRetries: 0, ...(options.baseURL ? { baseURL: options.baseURL } : {}) }) : undefined);
}
