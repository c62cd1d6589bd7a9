import assert from 'node:assert/strict';
import { APIConnectionError, APIConnectionTimeoutError, APIError } from '@anthropic-ai/sdk';
import { ModelError } from '../../../src/core/models/model';
import { describeError } from '../../../src/providers/anthropic/describeError';

const live = new AbortController().signal;
const apiError = (status: number, type: string, message: string): APIError =>
  APIError.generate(status, { type: 'error', error: { type, message } }, message, new Headers());
/** What Node's fetch throws for a refused connection: the code sits on the cause of the cause. */
const refusedConnection = (): APIConnectionError =>
  new APIConnectionError({ cause: Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }) }) });

describe('model errors are worded by cause', () => {
  it('a connection that failed says it could not reach the URL, and which, never that the API refused', () => {
    const err = describeError(refusedConnection(), live, 2, 'http://127.0.0.1:9');
    assert.equal(err.kind, 'connection');
    assert.equal(err.brief, 'could not reach http://127.0.0.1:9 (connection refused)');
    assert.match(err.message, /^Could not reach the Anthropic API at http:\/\/127\.0\.0\.1:9 \(quiver\.anthropic\.baseUrl in your User settings\)\..*\(Connection refused\.\)$/);
    assert.doesNotMatch(`${err.brief} ${err.message}`, /refused it|rejected/);
  });

  it('with no base URL set, it names api.anthropic.com; a timeout says so', () => {
    assert.equal(describeError(new APIConnectionError({ message: 'Connection error.' }), live, 0).brief, 'could not reach https://api.anthropic.com');
    assert.equal(describeError(new APIConnectionTimeoutError(), live, 0, 'http://proxy.test:8080').brief, 'could not reach http://proxy.test:8080 (timed out)');
    const badPort = new APIConnectionError({ cause: Object.assign(new TypeError('fetch failed'), { cause: new Error('bad port') }) });
    assert.equal(describeError(badPort, live, 0, 'http://localhost:6000').brief, "could not reach http://localhost:6000 (a port Node's fetch never connects to)");
  });

  it('"refused" only for a 4xx the API answered, with its status and the start of its detail', () => {
    assert.equal(describeError(apiError(400, 'invalid_request_error', 'messages.0.content: text content blocks must be non-empty and contain non-whitespace text'), live, 2).brief,
      'the API refused it (400 messages.0.content: text content blocks must be non-empty…)');
    assert.equal(describeError(apiError(401, 'authentication_error', 'invalid x-api-key'), live, 2).brief, 'the API refused the key (401)');
    assert.equal(describeError(apiError(404, 'not_found_error', 'model: claude-nope'), live, 2).brief, 'the API refused it (404 model: claude-nope)');
    assert.equal(describeError(apiError(500, 'api_error', 'Internal server error'), live, 2).brief, 'the API had an internal error (500)');
    assert.equal(describeError(apiError(529, 'overloaded_error', 'Overloaded'), live, 2).brief, 'the API is overloaded (529)');
  });

  it('anything else is a cut reply; a ModelError passes through; every kind has a cause in words', () => {
    assert.equal(describeError(new Error('socket hang up'), live, 0).brief, 'the reply was cut off (socket hang up)');
    const own = new ModelError('invalid_setting', 'quiver.anthropic.baseUrl: …', 'quiver.anthropic.baseUrl is not a valid URL');
    assert.equal(describeError(own, live, 0), own);
    assert.equal(new ModelError('missing_key', 'No key.').brief, 'no API key');
  });
});
