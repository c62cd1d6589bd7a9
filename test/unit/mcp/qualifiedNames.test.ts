import assert from 'node:assert/strict';
import { BUILTIN_TOOL_NAMES } from '../../../src/core/tools/definitions';
import { assignQualifiedNames, ownsToolKey, qualifyToolName } from '../../../src/mcp/qualifiedNames';

const VALID = /^[a-zA-Z0-9_-]{1,64}$/;

describe('qualified tool names', () => {
  it('keeps server__tool when it is already valid', () => {
    assert.equal(qualifyToolName('github', 'list_issues'), 'github__list_issues');
    assert.equal(qualifyToolName('my-fs', 'read-file'), 'my-fs__read-file');
  });

  it('sanitizes invalid characters and adds a hash of the exact pair', () => {
    const name = qualifyToolName('weather', 'get.forecast');
    assert.match(name, /^weather__get_forecast_[0-9a-f]{8}$/);
    assert.match(qualifyToolName('my server.v2', 'tool with spaces'), /^my_server_v2__tool_with_spaces_[0-9a-f]{8}$/);
    assert.match(qualifyToolName('ünï', 'çödé'), VALID);
  });

  it('is deterministic and depends only on the (server, tool) pair', () => {
    assert.equal(qualifyToolName('a b', 'x.y'), qualifyToolName('a b', 'x.y'));
    const crowded = assignQualifiedNames([{ server: 't', tool: 'get.x' }, { server: 's', tool: 'other' }, { server: 's', tool: 'get.x' }]);
    assert.deepEqual(crowded.get(qualifyToolName('s', 'get.x')), { server: 's', tool: 'get.x' });
    assert.deepEqual(crowded.get(qualifyToolName('t', 'get.x')), { server: 't', tool: 'get.x' });
  });

  it('shortens long names to 64 characters, keeping them distinct', () => {
    const long = 'a'.repeat(80);
    const a = qualifyToolName('server', long);
    const b = qualifyToolName('server', `${long}b`);
    assert.match(a, VALID);
    assert.match(b, VALID);
    assert.notEqual(a, b);
    assert.match(qualifyToolName('s'.repeat(70), 't'), VALID);
  });

  it('never lets the separator become ambiguous', () => {
    assert.notEqual(qualifyToolName('a__b', 'c'), qualifyToolName('a', 'b__c'));
    assert.match(qualifyToolName('a__b', 'c'), /^a_b__c_[0-9a-f]{8}$/);
    assert.match(qualifyToolName('_x_', 'y'), /^x__y_[0-9a-f]{8}$/);
  });

  it('gives names that collide after sanitizing distinct names', () => {
    const names = assignQualifiedNames([
      { server: 'fs', tool: 'a.b' },
      { server: 'fs', tool: 'a/b' },
      { server: 'fs', tool: 'a_b' },
    ]);
    assert.equal(names.size, 3);
    assert.deepEqual(names.get('fs__a_b'), { server: 'fs', tool: 'a_b' });
    for (const name of names.keys()) assert.match(name, VALID);
  });

  it('maps each name back to exactly its server and tool when servers share tool names', () => {
    const refs = [
      { server: 'one', tool: 'read' },
      { server: 'two', tool: 'read' },
      { server: 'one', tool: 'search' },
    ];
    const names = assignQualifiedNames(refs);
    assert.deepEqual(names.get('one__read'), refs[0]);
    assert.deepEqual(names.get('two__read'), refs[1]);
    assert.deepEqual(names.get('one__search'), refs[2]);
  });

  it('never produces a builtin name', () => {
    const names = assignQualifiedNames(BUILTIN_TOOL_NAMES.flatMap((b) => [{ server: '', tool: b }, { server: b, tool: '' }, { server: 'x', tool: b }]));
    for (const name of names.keys()) {
      assert.ok(!(BUILTIN_TOOL_NAMES as readonly string[]).includes(name), name);
      assert.match(name, VALID);
    }
  });

  it('settles a forced clash with a numbered suffix in a deterministic order', () => {
    const clean = qualifyToolName('s', 'get.x');
    const names = assignQualifiedNames([{ server: 's', tool: clean.slice('s__'.length) }, { server: 's', tool: 'get.x' }]);
    assert.equal(names.size, 2);
    assert.deepEqual(names.get(clean), { server: 's', tool: 'get.x' });
    assert.deepEqual(names.get(`${clean}_2`), { server: 's', tool: clean.slice('s__'.length) });
  });

  it('ownsToolKey recognizes keys of a server by its plain and its shortened prefix', () => {
    assert.ok(ownsToolKey('github')('github__create_issue'));
    assert.ok(!ownsToolKey('git')('github__create_issue'));
    assert.ok(!ownsToolKey('github')('github_enterprise__create_issue'));
    const odd = 'My Server (staging)';
    assert.ok(ownsToolKey(odd)(qualifyToolName(odd, 'list items')));
    const long = 'a-very-long-server-name-that-runs-past-the-limit';
    assert.ok(ownsToolKey(long)(qualifyToolName(long, 'a_tool_name_long_enough_to_need_shortening')));
    assert.ok(ownsToolKey(long)(qualifyToolName(long, 'x')));
  });
});

