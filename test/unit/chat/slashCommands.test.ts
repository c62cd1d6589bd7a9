import assert from 'node:assert/strict';
import { parseSlashCommand } from '../../../src/core/slashCommands/commands';

const command = (text: string): unknown => {
  const r = parseSlashCommand(text);
  assert.ok(r.ok, `expected ${JSON.stringify(text)} to parse, got: ${r.ok ? '' : r.error}`);
  return r.command;
};
const error = (text: string): string => {
  const r = parseSlashCommand(text);
  assert.ok(!r.ok, `expected ${JSON.stringify(text)} to fail`);
  return r.error;
};

describe('parseSlashCommand', () => {
  it('passes plain text through unchanged', () => {
    assert.deepEqual(command('hello /tools'), { kind: 'message', text: 'hello /tools' });
    assert.deepEqual(command('  indented\nlines  '), { kind: 'message', text: '  indented\nlines  ' });
  });

  it('// escapes a leading slash', () => {
    assert.deepEqual(command('//usr/bin is missing'), { kind: 'message', text: '/usr/bin is missing' });
  });

  it('/tools, case-insensitively, with surrounding whitespace', () => {
    assert.deepEqual(command('/tools'), { kind: 'tools' });
    assert.deepEqual(command('  /TOOLS  '), { kind: 'tools' });
    assert.match(error('/tools all'), /takes no arguments/);
  });

  it('/use NAME keeps the rest of the message, newlines included', () => {
    assert.deepEqual(command('/use fs__read_file summarise\nREADME.md'), { kind: 'use', tool: 'fs__read_file', text: 'summarise\nREADME.md' });
    assert.deepEqual(command('/use\tgh-issue   list open bugs '), { kind: 'use', tool: 'gh-issue', text: 'list open bugs' });
  });

  it('/use without a name or message, or with an impossible name, says how to use it', () => {
    assert.match(error('/use'), /needs a tool name and a message/);
    assert.match(error('/use fs__read_file'), /needs a message after the tool name/);
    assert.match(error('/use fs.read hi'), /not a tool name/);
    assert.match(error(`/use ${'a'.repeat(65)} hi`), /not a tool name/);
  });

  it('/set KEY=VALUE trims around = and keeps inner spaces of the value', () => {
    assert.deepEqual(command('/set maxTokens=4096'), { kind: 'set', key: 'maxTokens', value: '4096' });
    assert.deepEqual(command('/set  model = claude sonnet '), { kind: 'set', key: 'model', value: 'claude sonnet' });
    assert.deepEqual(command('/set a.b=x=y'), { kind: 'set', key: 'a.b', value: 'x=y' });
  });

  it('/set rejects a missing =, key or value, and multi-line values', () => {
    assert.match(error('/set'), /needs KEY=VALUE/);
    assert.match(error('/set model'), /needs KEY=VALUE/);
    assert.match(error('/set =x'), /not a setting key/);
    assert.match(error('/set 1x=2'), /not a setting key/);
    assert.match(error('/set model='), /needs a value/);
    assert.match(error('/set model=a\nb'), /single-line/);
  });

  it('an unknown command lists the commands and the escape', () => {
    const e = error('/frobnicate now');
    assert.match(e, /Unknown command \/frobnicate/);
    for (const usage of ['/tools', '/use NAME message', '/set KEY=VALUE', '//']) assert.ok(e.includes(usage), `${usage} in: ${e}`);
    assert.match(error('/'), /Type a command after \//);
  });

  it('/server.prompt with name=value arguments (quoted when they hold spaces); the rest is kept as text', () => {
    assert.deepEqual(command('/github.review_pr number=42 repo="acme/web app"'), { kind: 'prompt', name: 'github.review_pr', args: { number: '42', repo: 'acme/web app' }, text: '' });
    assert.deepEqual(command('/everything.args-prompt Paris'), { kind: 'prompt', name: 'everything.args-prompt', args: {}, text: 'Paris' });
    assert.deepEqual(command('/docs.search'), { kind: 'prompt', name: 'docs.search', args: {}, text: '' });
    assert.match(error('/frobnicate'), /or \/SERVER\.PROMPT for an MCP server's prompt/);
    assert.match(error('/.prompt'), /Unknown command/);
  });
});
