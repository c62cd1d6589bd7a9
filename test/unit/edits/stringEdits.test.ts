import assert from 'node:assert/strict';
import { applyStringEdits, minimalReplacement } from '../../../src/core/edits';

const FILE = 'export function greet(name: string) {\n  return `Hello, ${name}`;\n}\n\nexport function part() {\n  return 1;\n}\n';

describe('exact-string edits', () => {
  it('replaces one unique string and keeps the rest byte for byte', () => {
    const out = applyStringEdits(FILE, [{ oldString: 'greet(name', newString: 'welcome(name', replaceAll: false }], 'src/a.ts');
    assert.deepEqual(out, { ok: true, text: FILE.replace('greet(name', 'welcome(name') });
  });

  it('applies several edits in order, each to the result of the ones before', () => {
    const out = applyStringEdits(FILE, [
      { oldString: 'greet', newString: 'hello', replaceAll: false },
      { oldString: 'hello(name: string)', newString: 'hello(who: string)', replaceAll: false },
    ], 'src/a.ts');
    assert.equal(out.ok && out.text.includes('hello(who: string)'), true);
  });

  it('refuses a string found twice, naming its lines and replace_all', () => {
    const out = applyStringEdits(FILE, [{ oldString: 'export function', newString: 'function', replaceAll: false }], 'src/a.ts');
    assert.equal(out.ok, false);
    assert.match(!out.ok ? out.message : '', /occurs 2 times in src\/a\.ts \(at lines 1, 5\).*"replace_all": true/);
  });

  it('replaces every occurrence with replace_all', () => {
    const out = applyStringEdits(FILE, [{ oldString: 'export function', newString: 'function', replaceAll: true }], 'src/a.ts');
    assert.equal(out.ok && !out.text.includes('export'), true);
  });

  it('refuses a string not found, showing the nearest lines of the file with their numbers', () => {
    const out = applyStringEdits(FILE, [{ oldString: '    return `Hello, ${name}`;', newString: 'x', replaceAll: false }], 'src/a.ts');
    assert.equal(out.ok, false);
    const message = !out.ok ? out.message : '';
    assert.match(message, /"old_string" was not found in src\/a\.ts/);
    assert.match(message, /nearest lines of the file:\n {5}1\texport function greet/);
    assert.match(message, /\n {5}2\t {2}return `Hello, \$\{name\}`;/);
  });

  it('all or nothing: a later edit that fails leaves no change, and says which edit', () => {
    const out = applyStringEdits(FILE, [
      { oldString: 'greet', newString: 'hello', replaceAll: false },
      { oldString: 'nowhere', newString: 'x', replaceAll: false },
    ], 'src/a.ts');
    assert.equal(out.ok, false);
    assert.match(!out.ok ? out.message : '', /^edit 2 of 2: .*after the edits before it/);
  });

  it('refuses an empty old_string and a no-op edit', () => {
    assert.match(JSON.stringify(applyStringEdits(FILE, [{ oldString: '', newString: 'x', replaceAll: false }], 'a')), /is empty/);
    assert.match(JSON.stringify(applyStringEdits(FILE, [{ oldString: 'greet', newString: 'greet', replaceAll: false }], 'a')), /change nothing/);
  });
});

describe('the smallest replacement between two texts', () => {
  it('keeps the common head and tail', () => {
    assert.deepEqual(minimalReplacement('abcXYZdef', 'abc12def'), { start: 3, end: 6, text: '12' });
    assert.deepEqual(minimalReplacement('same', 'same'), { start: 4, end: 4, text: '' });
    assert.deepEqual(minimalReplacement('', 'new'), { start: 0, end: 0, text: 'new' });
    assert.deepEqual(minimalReplacement('aaa', 'aa'), { start: 2, end: 3, text: '' });
  });
});
