import { APIConnectionError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import { ModelError } from '../../core/model';

export const MISSING_KEY_MESSAGE = 'No Anthropic API key is set. Run "Quiver: Set API Key" from the Command Palette, or set the ANTHROPIC_API_KEY environment variable and reload the window.';

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

/** The API's own explanation (`{ error: { message } }`), else the SDK's message. */
function apiDetail(err: APIError): string {
  const detail = field(field(err.error, 'error'), 'message');
  return typeof detail === 'string' && detail.length > 0 ? detail : err.message;
}

function errorType(err: APIError): string | undefined {
  const type = field(field(err.error, 'error'), 'type') ?? field(err.error, 'type');
  return typeof type === 'string' ? type : undefined;
}

function statusError(err: APIError, retries: number): ModelError {
  const status = err.status;
  const tried = retries > 0 && status !== undefined ? ` Quiver retried ${retries} time${retries === 1 ? '' : 's'}.` : '';
  if (status === 401) return new ModelError('auth', `The Anthropic API rejected the API key (401 ${apiDetail(err)}). Set a valid key with "Quiver: Set API Key" or ANTHROPIC_API_KEY.`);
  if (status === 403) return new ModelError('auth', `The API key is not allowed to do this (403): ${apiDetail(err)}.`);
  if (status === 400 || status === 413 || status === 422) return new ModelError('bad_request', `The Anthropic API rejected the request (${status}): ${apiDetail(err)}.`);
  if (status === 404) return new ModelError('bad_request', `The Anthropic API did not find it (404): ${apiDetail(err)}. Check the quiver.model setting.`);
  if (status === 429) return new ModelError('rate_limited', `The Anthropic API is rate-limiting this key (429).${tried} Wait a minute and send again.`);
  if (status === 529 || errorType(err) === 'overloaded_error') {
    const when = status === undefined ? ' and stopped the reply midway' : ' (529)';
    return new ModelError('overloaded', `Anthropic's API is overloaded right now${when}.${tried} Try again in a little while.`);
  }
  if (status !== undefined && status >= 500) return new ModelError('server', `The Anthropic API had an internal error (${status}).${tried} Try again; if it persists, check status.anthropic.com.`);
  if (status === undefined && errorType(err) !== undefined) return new ModelError('server', `The Anthropic API reported an error mid-reply (${errorType(err)}): ${apiDetail(err)}.`);
  return new ModelError('other', `The Anthropic API failed (${status ?? 'no status'}): ${apiDetail(err)}.`);
}

/** Where the connection went, so a user can tell a wrong proxy URL from a network outage. */
function connectionHint(baseURL: string | undefined): string {
  return baseURL
    ? `at ${baseURL} (quiver.anthropic.baseUrl in your User settings). Check that the proxy runs and the URL is right, or clear the setting to use api.anthropic.com`
    : 'at https://api.anthropic.com (quiver.anthropic.baseUrl is not set). Check the network, or set quiver.anthropic.baseUrl in your User settings to use a proxy';
}

/** Turns anything the SDK throws into a ModelError whose message tells the user what happened and what to do. */
export function describeError(err: unknown, signal: AbortSignal, retries: number, baseURL?: string): ModelError {
  if (err instanceof ModelError) return err;
  if (signal.aborted || err instanceof APIUserAbortError) return new ModelError('cancelled', 'Cancelled by the user.');
  if (err instanceof APIConnectionError) {
    return new ModelError('connection', `Could not reach the Anthropic API ${connectionHint(baseURL)}. (${err.message})`);
  }
  if (err instanceof APIError) return statusError(err as APIError, retries);
  const message = err instanceof Error ? err.message : String(err);
  return new ModelError('stream_cut', `The reply was cut off before it finished (${message}). Send again to retry.`);
}
