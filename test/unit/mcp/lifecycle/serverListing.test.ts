import assert from 'node:assert/strict';
import type { ServerTool } from '../../../../src/mcp/catalogue';
import type { ServerConfig } from '../../../../src/mcp/config';
import { listingOf, toStatus, type ServerFacts } from '../../../../src/mcp/lifecycle';

const config: ServerConfig = { name: 'docs', transport: 'stdio', command: 'node', args: [], env: {}, cwd: undefined, source: { kind: 'userSettings' } };
const tool = (name: string): ServerTool => ({ name, description: `${name} things`, inputSchema: { type: 'object' } });
const live = [tool('search')];
const cachedTools = [tool('a'), tool('b')];
const cached = { server: undefined, listedAt: 1_000, tools: cachedTools };
const facts = (over: Partial<ServerFacts>): ServerFacts => ({ config, state: 'stopped', reason: undefined, tools: [], listedAt: undefined, cached: undefined, pid: undefined, restarts: 0, signedIn: false, ...over });

describe('listingOf / toStatus', () => {
  it('a running server lists its live tools, whatever its cache holds', () => {
    assert.deepEqual(listingOf(facts({ state: 'running', tools: live, listedAt: 5, cached })), { tools: live, listedAt: 5 });
  });

  it('an idle server, and one waking from idle, list the cached catalogue', () => {
    assert.equal(listingOf(facts({ state: 'idle', cached })), cached);
    assert.equal(listingOf(facts({ state: 'starting', cached })), cached);
    assert.equal(listingOf(facts({ state: 'starting' })), undefined);
  });

  it('a server waiting for sign-in, failed, stopped or off lists nothing even with a cache', () => {
    for (const state of ['signin', 'failed', 'stopped', 'off'] as const) assert.equal(listingOf(facts({ state, cached })), undefined, state);
  });

  it('the status counts what is listed and says when it was listed', () => {
    assert.deepEqual(toStatus(facts({ state: 'idle', reason: 'resting', cached, restarts: 2, pid: 7, signedIn: true })), {
      name: 'docs', state: 'idle', reason: 'resting', source: config.source, toolCount: 2, catalogueListedAt: 1_000, pid: 7, restarts: 2, signedIn: true,
    });
    assert.equal(toStatus(facts({ state: 'failed', cached })).toolCount, 0);
  });
});
