import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import { ModelError } from '../../core/models';
import { headOf } from '../../core/text';

export const MISSING_KEY_MESSAGE = 'No Anthropic API key is set. Run "Quiver: Set API Key" from the Command Palette, or set the ANTHROPIC_API_KEY environment variable and reload the window.';

/** Where the SDK sends requests when quiver.anthropic.baseUrl is empty. */
export const DEFAULT_BASE_URL = 'https://api.anthropic.com';

/** A label names the API's detail only as far as fits on a line; the full text is in the message. */
const BRIEF_DETAIL_CHARS = 60;

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

/** The start of `text` on one line, cut at a word where one is near the limit. */
function briefDetail(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= BRIEF_DETAIL_CHARS) return flat;
  const head = headOf(flat, BRIEF_DETAIL_CHARS - 1);
  const space = head.lastIndexOf(' ');
  return `${(space > BRIEF_DETAIL_CHARS / 2 ? head.slice(0, space) : head).trimEnd()}…`;
}

/** "the API refused it (400 messages: blank text)": only an answer the API gave is a refusal. */
function refused(status: number, err: APIError): string {
  return `the API refused it (${status} ${briefDetail(apiDetail(err))})`;
}

function statusError(err: APIError, retries: number): ModelError {
  const status = err.status;
  const tried = retries > 0 && status !== undefined ? ` Quiver retried ${retries} time${retries === 1 ? '' : 's'}.` : '';
  if (status === 401) return new ModelError('auth', `The Anthropic API rejected the API key (401 ${apiDetail(err)}). Set a valid key with "Quiver: Set API Key" or ANTHROPIC_API_KEY.`, 'the API refused the key (401)');
  if (status === 403) return new ModelError('auth', `The API key is not allowed to do this (403): ${apiDetail(err)}.`, refused(status, err));
  if (status === 400 || status === 413 || status === 422) return new ModelError('bad_request', `The Anthropic API rejected the request (${status}): ${apiDetail(err)}.`, refused(status, err));
  if (status === 404) return new ModelError('bad_request', `The Anthropic API did not find it (404): ${apiDetail(err)}. Check the quiver.model setting.`, refused(status, err));
  if (status === 429) return new ModelError('rate_limited', `The Anthropic API is rate-limiting this key (429).${tried} Wait a minute and send again.`, 'the API is rate-limiting this key (429)');
  if (status === 529 || errorType(err) === 'overloaded_error') {
    const when = status === undefined ? ' and stopped the reply midway' : ' (529)';
    return new ModelError('overloaded', `Anthropic's API is overloaded right now${when}.${tried} Try again in a little while.`, status === undefined ? 'the API is overloaded' : 'the API is overloaded (529)');
  }
  if (status !== undefined && status >= 500) return new ModelError('server', `The Anthropic API had an internal error (${status}).${tried} Try again; if it persists, check status.anthropic.com.`, `the API had an internal error (${status})`);
  if (status === undefined && errorType(err) !== undefined) return new ModelError('server', `The Anthropic API reported an error mid-reply (${errorType(err)}): ${apiDetail(err)}.`, `the API reported an error (${errorType(err)})`);
  const brief = status !== undefined && status >= 400 ? refused(status, err) : `the API failed (${status ?? 'no status'})`;
  return new ModelError('other', `The Anthropic API failed (${status ?? 'no status'}): ${apiDetail(err)}.`, brief);
}

/** Where the connection went, so a user can tell a wrong proxy URL from a network outage. */
function connectionHint(baseURL: string | undefined): string {
  return baseURL
    ? `at ${baseURL} (quiver.anthropic.baseUrl in your User settings). Check that the proxy runs and the URL is right, or clear the setting to use api.anthropic.com`
    : `at ${DEFAULT_BASE_URL} (quiver.anthropic.baseUrl is not set). Check the network, or set quiver.anthropic.baseUrl in your User settings to use a proxy`;
}

/** What the network said, in words, from the error codes Node puts on a failed fetch's cause chain. */
const NETWORK_CODES: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'timed out',
  UND_ERR_CONNECT_TIMEOUT: 'timed out',
  CERT_HAS_EXPIRED: 'certificate expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed certificate',
  SELF_SIGNED_CERT_IN_CHAIN: 'self-signed certificate',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'certificate not trusted',
};

function networkReason(err: APIConnectionError): string | undefined {
  if (err instanceof APIConnectionTimeoutError) return 'timed out';
  let cause: unknown = err.cause;
  for (let depth = 0; depth < 5 && cause !== undefined && cause !== null; depth++) {
    const code = field(cause, 'code');
    if (typeof code === 'string' && NETWORK_CODES[code] !== undefined) return NETWORK_CODES[code];
    // fetch does not connect to some ports at all (6000, 6667…: its "bad port" list) and says so with no code.
    if (field(cause, 'message') === 'bad port') return "a port Node's fetch never connects to";
    cause = field(cause, 'cause');
  }
  return undefined;
}

function connectionError(err: APIConnectionError, baseURL: string | undefined): ModelError {
  const reason = networkReason(err);
  const url = baseURL ?? DEFAULT_BASE_URL;
  return new ModelError(
    'connection',
    // The SDK's own message ("Connection error.") says less than the network's reason, when there is one.
    `Could not reach the Anthropic API ${connectionHint(baseURL)}. (${reason !== undefined ? `${capitalized(reason)}.` : err.message})`,
    `could not reach ${url}${reason !== undefined ? ` (${reason})` : ''}`,
  );
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Turns anything the SDK throws into a ModelError whose message tells the user what happened and what to do. */
export function describeError(err: unknown, signal: AbortSignal, retries: number, baseURL?: string): ModelError {
  if (err instanceof ModelError) return err;
  if (signal.aborted || err instanceof APIUserAbortError) return new ModelError('cancelled', 'Cancelled by the user.');
  if (err instanceof APIConnectionError) return connectionError(err, baseURL);
  if (err instanceof APIError) return statusError(err as APIError, retries);
  const message = err instanceof Error ? err.message : String(err);
  return new ModelError('stream_cut', `The reply was cut off before it finished (${message}). Send again to retry.`, `the reply was cut off (${briefDetail(message)})`);
}
