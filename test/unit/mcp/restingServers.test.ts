import assert from 'node:assert/strict';
import { parseToolsConfig } from '../../../src/core/availability';
import { restingServers } from '../../../src/mcp/config';

const servers = [{ name: 'fs' }, { name: 'gh' }, { name: 'mem' }];
const rest = (tools: unknown, eager: readonly string[] = []) => {
  const r = restingServers(parseToolsConfig(tools).value, servers, eager);
  return { off: [...r.off].sort(), idle: [...r.idle].sort() };
};

describe('resting servers (what quiver.tools lets rest)', () => {
  it('all discoverable: every server may idle, none is off', () => {
    assert.deepEqual(rest({ '*': { enable: 'discoverable' } }), { off: [], idle: ['fs', 'gh', 'mem'] });
  });

  it('a server with a tool on starts; one with every tool off is off (and idle)', () => {
    assert.deepEqual(rest({ '*': { enable: 'discoverable' }, fs__read: { enable: 'on' }, 'gh__*': { enable: 'off' } }), { off: ['gh'], idle: ['gh', 'mem'] });
  });

  it('quiver.mcp.eagerServers keeps a server out of the idle set only', () => {
    assert.deepEqual(rest({ '*': { enable: 'discoverable' }, 'gh__*': { enable: 'off' } }, ['mem', 'gh', 'unknown']), { off: ['gh'], idle: ['fs'] });
  });

  it('a server name with characters a qualified name cannot hold still owns its tool keys', () => {
    const r = restingServers(parseToolsConfig({ '*': { enable: 'discoverable' }, my_server_v2__read: { enable: 'on' } }).value, [{ name: 'my server.v2' }], []);
    assert.deepEqual([...r.idle], []);
  });
});
