import assert from 'node:assert/strict';
import { parseToolsConfig, serversWithEveryToolOff, type ServerKeys } from '../../../src/core/availability';
import { serversWithNoToolOn } from '../../../src/core/availability/dormant';

const server = (name: string): ServerKeys => ({ name, ownsToolKey: (key) => key.startsWith(`${name}__`) });
const servers = [server('fs'), server('gh'), server('mem')];
const dormant = (tools: unknown) => [...serversWithEveryToolOff(parseToolsConfig(tools).value, servers)].sort();
const noneOn = (tools: unknown) => [...serversWithNoToolOn(parseToolsConfig(tools).value, servers)].sort();

describe('servers with every tool off (left unstarted)', () => {
  it('none when nothing is configured: tools default to on', () => {
    assert.deepEqual(dormant({}), []);
  });

  it('a server turned off as a whole', () => {
    assert.deepEqual(dormant({ 'gh__*': { enable: 'off' } }), ['gh']);
    assert.deepEqual(dormant({ 'gh__*': { enable: { availability: 'off', allow_toggle: 'never' } } }), ['gh']);
  });

  it('every server when "*" is off and nothing else permits', () => {
    assert.deepEqual(dormant({ '*': { enable: 'off' } }), ['fs', 'gh', 'mem']);
  });

  it('"explicit" (off unless named) still starts servers: their tools must be listed to be named', () => {
    assert.deepEqual(dormant({ '*': { enable: 'explicit' } }), []);
    assert.deepEqual(dormant({ 'gh__*': { enable: 'explicit' } }), []);
    assert.deepEqual(dormant({ '*': { enable: 'explicit' }, 'gh__*': { enable: 'off' } }), ['gh']);
  });

  it('a server whose own default permits is started even when "*" is off', () => {
    assert.deepEqual(dormant({ '*': { enable: 'off' }, 'mem__*': { enable: 'discoverable' } }), ['fs', 'gh']);
  });

  it('a server is started when one of its tools is named on or discoverable', () => {
    assert.deepEqual(dormant({ '*': { enable: 'off' }, fs__read: { enable: 'on' }, gh__issue: { enable: 'discoverable' } }), ['mem']);
    assert.deepEqual(dormant({ 'gh__*': { enable: 'off' }, gh__issue: { enable: true } }), []);
  });

  it('entries that leave a tool off, or set only allow_toggle or run, start nothing', () => {
    assert.deepEqual(
      dormant({ '*': { enable: 'off' }, fs__read: { enable: 'off' }, gh__issue: { enable: { allow_toggle: 'never' } }, mem__add: { run: 'unattended' } }),
      ['fs', 'gh', 'mem'],
    );
  });

  it('a discoverable or on default keeps every server running', () => {
    assert.deepEqual(dormant({ '*': { enable: 'discoverable' }, fs__read: false }), []);
  });
});

describe('servers with no tool on (may sleep on a cached catalogue)', () => {
  it('none when nothing is configured: tools default to on', () => {
    assert.deepEqual(noneOn({}), []);
  });

  it('every server when everything is discoverable, off or off unless named', () => {
    assert.deepEqual(noneOn({ '*': { enable: 'discoverable' } }), ['fs', 'gh', 'mem']);
    assert.deepEqual(noneOn({ '*': { enable: 'off' } }), ['fs', 'gh', 'mem']);
    assert.deepEqual(noneOn({ '*': { enable: 'explicit' } }), ['fs', 'gh', 'mem']);
  });

  it('a server whose own default is on, or "*" on without a server default, is not', () => {
    assert.deepEqual(noneOn({ '*': { enable: 'discoverable' }, 'gh__*': { enable: 'always' } }), ['fs', 'mem']);
    assert.deepEqual(noneOn({ 'gh__*': { enable: 'discoverable' } }), ['gh']);
  });

  it('one tool named on keeps its server out, whatever the defaults', () => {
    assert.deepEqual(noneOn({ '*': { enable: 'discoverable' }, fs__read: { enable: 'on' } }), ['gh', 'mem']);
    assert.deepEqual(noneOn({ '*': { enable: 'off' }, gh__issue: { enable: true }, mem__add: { enable: { state: true } } }), ['fs']);
  });

  it('entries that leave a tool discoverable or off, or set only allow_toggle or run, do not', () => {
    assert.deepEqual(
      noneOn({ '*': { enable: 'discoverable' }, fs__read: { enable: 'discoverable' }, gh__issue: { enable: { allow_toggle: 'never' } }, mem__add: { run: 'unattended' } }),
      ['fs', 'gh', 'mem'],
    );
  });

  it('every server with every tool off is among them', () => {
    const tools = { '*': { enable: 'discoverable' }, 'gh__*': { enable: 'off' }, fs__read: { enable: 'on' } };
    assert.ok(dormant(tools).every((name) => noneOn(tools).includes(name)));
    assert.deepEqual(noneOn(tools), ['gh', 'mem']);
  });
});
