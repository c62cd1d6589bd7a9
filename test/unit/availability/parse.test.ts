import assert from 'node:assert/strict';
import { issueTurningOff, parseEnable, parseToolsConfig, resolveTool, type ToolEntry } from '../../../src/core/availability';

describe('enable: every written form of DESIGN.md\'s table', () => {
  const rows: [unknown, ToolEntry][] = [
    [true, { availability: 'on', allowToggle: 'any' }],
    ['on', { availability: 'on', allowToggle: 'any' }],
    [false, { availability: 'off', allowToggle: 'any' }],
    ['off', { availability: 'off', allowToggle: 'any' }],
    ['always', { availability: 'on', allowToggle: 'never' }],
    ['explicit', { availability: 'off', allowToggle: 'if_named' }],
    ['discoverable', { availability: 'discoverable', allowToggle: 'any' }],
    [{ availability: 'discoverable', allow_toggle: 'if_named' }, { availability: 'discoverable', allowToggle: 'if_named' }],
    [{ availability: 'on' }, { availability: 'on' }],
    [{ allow_toggle: 'never' }, { allowToggle: 'never' }],
    [{ allow_toggle: true }, { allowToggle: 'any' }],
    [{ allow_toggle: false }, { allowToggle: 'never' }],
    [{ allow_toggle: 'if_named_or_group' }, { allowToggle: 'if_named_or_group' }],
    [{ state: true }, { availability: 'on' }],
    [{ state: false }, { availability: 'off' }],
    [{ state: false, allow_toggle: 'if_named' }, { availability: 'off', allowToggle: 'if_named' }],
    [{}, {}],
  ];
  for (const [raw, expected] of rows) {
    it(`${JSON.stringify(raw)} parses to ${JSON.stringify(expected)} with no issue`, () => {
      const parsed = parseEnable(raw, 'enable');
      assert.deepEqual(parsed.value, expected);
      assert.deepEqual(parsed.issues, []);
    });
  }
});

describe('enable: errors', () => {
  it('state and availability in one table is an error naming both keys and which to keep', () => {
    const parsed = parseEnable({ state: false, availability: 'on' }, 'quiver.tools["x"].enable');
    assert.equal(parsed.issues.length, 1);
    const issue = parsed.issues[0]!;
    assert.equal(issue.path, 'quiver.tools["x"].enable');
    assert.match(issue.message, /"state"/);
    assert.match(issue.message, /"availability"/);
    assert.match(issue.message, /Keep "availability"/);
    assert.equal(parsed.value.availability, 'off', 'the conflicting tool is treated as off, never on');
  });

  const invalid: [string, unknown, RegExp][] = [
    ['an unknown shorthand', 'sometimes', /"sometimes" is not a valid enable.*"discoverable"/],
    ['a number', 1, /1 is not a valid enable.*true, false/],
    ['null', null, /null is not a valid enable/],
    ['an array', ['on'], /an array is not a valid enable/],
    ['an unknown availability', { availability: 'maybe' }, /"maybe" is not a valid availability. Use one of "on", "discoverable", "off"/],
    ['a boolean availability', { availability: true }, /true is not a valid availability/],
    ['an unknown allow_toggle', { availability: 'on', allow_toggle: 'sometimes' }, /"sometimes" is not a valid allow_toggle. Use one of "any", "never", "if_named", "if_named_or_group"/],
    ['a string state', { state: 'false' }, /"false" is not a valid state. Use true or false/],
    ['an unknown key', { availabilty: 'on' }, /unknown key "availabilty" in enable/],
  ];
  for (const [what, raw, message] of invalid) {
    it(`${what} names the key, lists the accepted values, and resolves the tool off`, () => {
      const parsed = parseEnable(raw, 'quiver.tools["gh__x"].enable');
      assert.equal(parsed.issues.length, 1);
      assert.match(parsed.issues[0]!.path, /^quiver\.tools\["gh__x"\]\.enable/);
      assert.match(parsed.issues[0]!.message, message);
      assert.equal(parsed.value.availability, 'off');
    });
  }

  it('an invalid entry under "*" keeps every inheriting tool off rather than on', () => {
    const { value, issues } = parseToolsConfig({ '*': { enable: 'everything' } });
    assert.equal(issues.length, 1);
    assert.equal(resolveTool(value, { name: 'a__b', server: 'a' }).availability, 'off');
  });

  it('an invalid enable lists the accepted values as JSON one can paste, each of which parses', () => {
    const { message } = parseEnable('maybe', 'enable').issues[0]!;
    const fragments = message.match(/\[[^\]]*\]|\{[^}]*\}/g) ?? [];
    assert.ok(fragments.length >= 2, message);
    const values = fragments.map((f) => JSON.parse(f) as unknown);
    const [forms, table] = values;
    assert.ok(Array.isArray(forms));
    for (const form of [...(forms as unknown[]), table]) assert.deepEqual(parseEnable(form, 'enable').issues, [], `${JSON.stringify(form)} from the message does not parse`);
    for (const written of [true, false, 'on', 'off', 'always', 'explicit', 'discoverable']) assert.ok(forms.includes(written), `${String(written)} is not listed`);
  });

  it('each issue names its key, and says whether it turns the entry off', () => {
    const { issues } = parseToolsConfig({ gh__a: { enable: 'maybe' }, gh__b: { run: 'always' }, gh__c: 'on', gh__d: { enabled: 'on' } });
    assert.deepEqual(issues.map((i) => [i.key, i.turnsOff ?? false]), [['gh__a', true], ['gh__b', false], ['gh__c', true], ['gh__d', false]]);
  });

  it('the issue that left a tool off is the one of the entry it takes its availability from', () => {
    const { value, issues } = parseToolsConfig({ '*': { enable: 'sometimes' }, 'gh__*': { enable: { availability: 'maybe' } }, gh__a: { enable: 'wrong' }, gh__b: { run: 'unattended' }, fs__c: { enable: 'on' } });
    const off = (name: string, server: string | undefined): string | undefined => issueTurningOff(value, issues, { name, server })?.key;
    assert.equal(off('gh__a', 'gh'), 'gh__a');
    assert.equal(off('gh__b', 'gh'), 'gh__*');
    assert.equal(off('fs__x', 'fs'), '*');
    assert.equal(off('fs__c', 'fs'), undefined, 'its own valid entry decides');
    assert.equal(off('search_tools', undefined), '*');
    assert.equal(issueTurningOff(parseToolsConfig({ x: { run: 'never' } }).value, parseToolsConfig({ x: { run: 'never' } }).issues, { name: 'x', server: 's' }), undefined, 'a bad run policy turns nothing off');
  });

  it('a run policy that is not ask or unattended falls back to ask with an error', () => {
    const { value, issues } = parseToolsConfig({ x: { run: 'always' } });
    assert.match(issues[0]!.message, /"always" is not a valid run policy. Use "ask", "unattended"/);
    assert.equal(resolveTool(value, { name: 'x', server: 's' }).run, 'ask');
  });

  it('a tool entry that is not an object, and quiver.tools that is not an object, are reported', () => {
    assert.match(parseToolsConfig({ x: 'on' }).issues[0]!.message, /not a tool entry. Write an object such as \{ "enable": "discoverable" \}/);
    assert.match(parseToolsConfig([1]).issues[0]!.message, /quiver.tools is an object/);
  });
});
