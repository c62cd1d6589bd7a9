import assert from 'node:assert/strict';
import { foldConfigs, parseKeyAssignment, parseToolsConfig, resolveTool, type ToolsConfig } from '../../../src/core/availability';

const config = (raw: unknown): ToolsConfig => {
  const parsed = parseToolsConfig(raw);
  assert.deepEqual(parsed.issues, []);
  return parsed.value;
};
const mcp = (name: string) => ({ name, server: name.split('__')[0] });

describe('resolution per field', () => {
  it('defaults to on / any for MCP tools that no entry names, and ask before running', () => {
    assert.deepEqual(resolveTool(config({}), mcp('gh__list')), { availability: 'on', allowToggle: 'any', run: 'ask' });
  });

  it('builtins default to running unattended', () => {
    assert.equal(resolveTool(config({}), { name: 'search_tools', server: undefined }).run, 'unattended');
  });

  it('the table form inherits unset fields from "*"', () => {
    const c = config({ '*': { enable: { allow_toggle: 'if_named' } }, gh__list: { enable: { availability: 'discoverable' } } });
    assert.deepEqual(resolveTool(c, mcp('gh__list')), { availability: 'discoverable', allowToggle: 'if_named', run: 'ask' });
  });

  it('the shorthand sets both fields, so it does not inherit allow_toggle', () => {
    const c = config({ '*': { enable: { allow_toggle: 'if_named' } }, gh__list: { enable: 'discoverable' } });
    assert.deepEqual(resolveTool(c, mcp('gh__list')), { availability: 'discoverable', allowToggle: 'any', run: 'ask' });
  });

  it('resolves tool, then <server>__*, then "*"', () => {
    const c = config({
      '*': { enable: 'discoverable', run: 'unattended' },
      'gh__*': { enable: { availability: 'off' } },
      gh__list: { enable: { availability: 'on' } },
    });
    assert.deepEqual(resolveTool(c, mcp('gh__list')), { availability: 'on', allowToggle: 'any', run: 'unattended' });
    assert.deepEqual(resolveTool(c, mcp('gh__delete')), { availability: 'off', allowToggle: 'any', run: 'unattended' });
    assert.deepEqual(resolveTool(c, mcp('fs__read')), { availability: 'discoverable', allowToggle: 'any', run: 'unattended' });
  });

  it('a server default does not leak to a server whose name merely starts the same', () => {
    const c = config({ 'gh__*': { enable: 'off' } });
    assert.equal(resolveTool(c, { name: 'ghx__list', server: 'ghx' }).availability, 'on');
  });

  it('later layers (deltas) override only the fields they set', () => {
    const base = config({ gh__list: { enable: { availability: 'discoverable', allow_toggle: 'if_named' } } });
    const delta = config({ gh__list: { enable: { availability: 'on' } } });
    assert.deepEqual(resolveTool(foldConfigs([base, delta]), mcp('gh__list')), { availability: 'on', allowToggle: 'if_named', run: 'ask' });
  });
});

describe('RFD 108 phase 1, in our terms', () => {
  it('a stored { "state": false } resolves to off', () => {
    assert.equal(resolveTool(config({ gh__list: { enable: { state: false } } }), mcp('gh__list')).availability, 'off');
  });

  it('a key assignment of enable.state=false still resolves', () => {
    const assignment = parseKeyAssignment('tools.gh__list.enable.state=false');
    assert.ok(assignment.ok);
    const folded = foldConfigs([config({ gh__list: { enable: 'on' } }), config(assignment.delta)]);
    assert.deepEqual(resolveTool(folded, mcp('gh__list')), { availability: 'off', allowToggle: 'any', run: 'ask' });
  });

  it('a key assignment of enable.availability=discoverable has its sibling arm', () => {
    const assignment = parseKeyAssignment('quiver.tools.gh__list.enable.availability=discoverable');
    assert.ok(assignment.ok);
    assert.deepEqual(assignment.delta, { gh__list: { enable: { availability: 'discoverable' } } });
  });

  it('key assignments of a shorthand, allow_toggle and run', () => {
    const cases: [string, unknown][] = [
      ['tools.a__b.enable=explicit', { a__b: { enable: 'explicit' } }],
      ['tools.a__b.enable.allow_toggle=never', { a__b: { enable: { allow_toggle: 'never' } } }],
      ['tools.*.run=unattended', { '*': { run: 'unattended' } }],
      ['tools.a__b.enable=true', { a__b: { enable: true } }],
    ];
    for (const [text, delta] of cases) {
      const assignment = parseKeyAssignment(text);
      assert.ok(assignment.ok, text);
      assert.deepEqual(assignment.delta, delta);
    }
  });

  it('malformed key assignments explain the accepted form', () => {
    for (const [text, message] of [
      ['tools.a__b.enable', /not an assignment/],
      ['model=opus', /cannot be set here/],
      ['tools.a__b.colour=red', /names no field/],
      ['tools.enable=on', /names no tool/],
    ] as const) {
      const assignment = parseKeyAssignment(text);
      assert.equal(assignment.ok, false, text);
      if (!assignment.ok) assert.match(assignment.message, message);
    }
  });
});
