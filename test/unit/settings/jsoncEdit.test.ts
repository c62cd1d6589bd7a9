import assert from 'node:assert/strict';
import { parse } from 'jsonc-parser';
import { JsoncSyntaxError, jsoncValueRange, removeJsoncProperty, setJsoncValue } from '../../../src/core/settings/jsoncEdit';

// A settings.json as people write it: comments, odd spacing and indentation, a trailing comment.
const HAND_WRITTEN = `{
  // Quiver
  "quiver.model": "claude",
  "quiver.tools": {
      // everything discoverable unless named
    "*" :{"enable":"discoverable"},   // the default
        "gh__echo":{ "enable" :"on" } ,
    /* kept off */ "gh__delete": { "enable": "off" }
  }
}
`;
const STYLE = { inlineFrom: 2 };

describe('editing a hand-written settings.json', () => {
  it('replaces one value and nothing else', () => {
    const after = setJsoncValue(HAND_WRITTEN, ['quiver.tools', 'gh__echo', 'enable'], 'discoverable', STYLE);
    assert.equal(after, HAND_WRITTEN.replace('"enable" :"on"', '"enable" :"discoverable"'));
  });

  it('adds an entry on a line of its own, indented like its siblings, keeping every other byte', () => {
    const after = setJsoncValue(HAND_WRITTEN, ['quiver.tools', 'gh__new', 'enable'], 'on', STYLE);
    assert.equal(after, HAND_WRITTEN.replace('"gh__delete": { "enable": "off" }\n', '"gh__delete": { "enable": "off" },\n    "gh__new": { "enable": "on" }\n'));
  });

  it('removing what was added gives the file back byte for byte', () => {
    const added = setJsoncValue(HAND_WRITTEN, ['quiver.tools', 'gh__new', 'enable'], 'on', STYLE);
    assert.equal(removeJsoncProperty(added, ['quiver.tools', 'gh__new']), HAND_WRITTEN);
  });

  it('removes an entry with its line and keeps the comment that ends the line before', () => {
    const after = removeJsoncProperty(HAND_WRITTEN, ['quiver.tools', 'gh__echo']);
    assert.equal(after, HAND_WRITTEN.replace('        "gh__echo":{ "enable" :"on" } ,\n', ''));
  });

  it('removing the last entry takes the comma before it, not the comment after that comma', () => {
    const text = '{\n  "a": 1, // one\n  "b": 2\n}\n';
    assert.equal(removeJsoncProperty(text, ['b']), '{\n  "a": 1 // one\n}\n');
  });

  it('removes a property inside an object written on one line', () => {
    assert.equal(removeJsoncProperty('{ "x": { "enable": "on", "run": "ask" } }', ['x', 'enable']), '{ "x": { "run": "ask" } }');
    assert.equal(removeJsoncProperty('{ "x": { "run": "ask", "enable": "on" } }', ['x', 'enable']), '{ "x": { "run": "ask" } }');
  });

  it('adds to an object written on one line, on that line', () => {
    assert.equal(setJsoncValue('{ "x": { "enable": "on" } }', ['x', 'run'], 'unattended', STYLE), '{ "x": { "enable": "on", "run": "unattended" } }');
  });

  it('leaves the text alone when the property to remove is not there', () => {
    assert.equal(removeJsoncProperty(HAND_WRITTEN, ['quiver.tools', 'nope']), HAND_WRITTEN);
    assert.equal(removeJsoncProperty('', ['quiver.tools', 'nope']), '');
  });

  it('creates missing parents, a line per property above the inline depth', () => {
    const after = setJsoncValue('{\n  "editor.fontSize": 14\n}\n', ['quiver.tools', 'a', 'enable'], 'on', STYLE);
    assert.equal(after, '{\n  "editor.fontSize": 14,\n  "quiver.tools": {\n    "a": { "enable": "on" }\n  }\n}\n');
    assert.equal(setJsoncValue('', ['quiver.tools', 'a', 'enable'], 'on', STYLE), '{\n  "quiver.tools": {\n    "a": { "enable": "on" }\n  }\n}\n');
  });

  it('follows the file\'s indentation and line ends', () => {
    const after = setJsoncValue('{\r\n\t"quiver.tools": {\r\n\t\t"a": { "enable": "on" }\r\n\t}\r\n}\r\n', ['quiver.tools', 'b', 'enable'], 'off', STYLE);
    assert.equal(after, '{\r\n\t"quiver.tools": {\r\n\t\t"a": { "enable": "on" },\r\n\t\t"b": { "enable": "off" }\r\n\t}\r\n}\r\n');
  });

  it('keeps a trailing comma the file already had', () => {
    const after = setJsoncValue('{\n  "a": 1,\n}\n', ['b'], 2, STYLE);
    assert.equal(after, '{\n  "a": 1,\n  "b": 2\n}\n');
  });

  it('replaces a value that is in the way of the path (an entry that is not an object)', () => {
    assert.equal(setJsoncValue('{ "quiver.tools": { "x": "on" } }', ['quiver.tools', 'x', 'enable'], 'off', STYLE), '{ "quiver.tools": { "x": { "enable": "off" } } }');
  });

  it('writes tables on one line with spaces', () => {
    const after = setJsoncValue(HAND_WRITTEN, ['quiver.tools', 'gh__echo', 'enable'], { availability: 'on', allow_toggle: 'if_named' }, STYLE);
    assert.match(after, /"gh__echo":\{ "enable" :\{ "availability": "on", "allow_toggle": "if_named" \} \} ,/);
    assert.deepEqual(parse(after), { 'quiver.model': 'claude', 'quiver.tools': { '*': { enable: 'discoverable' }, gh__echo: { enable: { availability: 'on', allow_toggle: 'if_named' } }, gh__delete: { enable: 'off' } } });
  });

  it('refuses a file that is not valid JSON rather than guess', () => {
    assert.throws(() => setJsoncValue('{ "a": ', ['b'], 1, STYLE), JsoncSyntaxError);
    assert.throws(() => removeJsoncProperty('[1]', ['b']), JsoncSyntaxError);
  });

  it('finds the range of a value for putting the cursor on it', () => {
    const range = jsoncValueRange(HAND_WRITTEN, ['quiver.tools', 'gh__echo', 'enable']);
    assert.ok(range);
    assert.equal(HAND_WRITTEN.slice(range.offset, range.offset + range.length), '"on"');
    assert.equal(jsoncValueRange(HAND_WRITTEN, ['quiver.tools', 'nope']), undefined);
  });
});
