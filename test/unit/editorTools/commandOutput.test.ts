import assert from 'node:assert/strict';
import type { CallProgress } from '../../../src/core/elicitation/elicitation';
import { CommandOutput, cleanTerminalOutput, commandResultText, lastOutputLine } from '../../../src/core/editorTools/commandOutput';

const ESC = '\x1b';
const BEL = '\x07';

describe('terminal output cleaning', () => {
  it('strips colours and cursor moves, and turns \\r\\n into \\n', () => {
    assert.equal(cleanTerminalOutput(`${ESC}[1;31merror${ESC}[0m: bad\r\n${ESC}[2K${ESC}[?25lok\r\n`), 'error: bad\nok\n');
  });

  it('strips VS Code\'s OSC 633 shell-integration marks and other OSC strings (BEL or ST ended)', () => {
    const raw = `${ESC}]633;C${BEL}hello\r\n${ESC}]0;title${ESC}\\world\r\n${ESC}]633;D;3${BEL}${ESC}]633;P;Cwd=/tmp${BEL}`;
    assert.equal(cleanTerminalOutput(raw), 'hello\nworld\n');
  });

  it('drops a sequence cut off at the end of the text, and other escapes and control characters', () => {
    assert.equal(cleanTerminalOutput(`done${ESC}]633;D;`), 'done');
    assert.equal(cleanTerminalOutput(`done${ESC}[1;3`), 'done');
    assert.equal(cleanTerminalOutput(`a${ESC}(Bb${ESC}=c\x00d\x0ee\tf`), 'abcde\tf');
  });

  it('keeps a line rewritten with carriage returns in its last state', () => {
    assert.equal(cleanTerminalOutput('fetching  10%\rfetching  55%\rfetching 100%\r\ndone\n'), 'fetching 100%\ndone\n');
    assert.equal(cleanTerminalOutput(`Progress 99%\r${ESC}[KDone\r\n`), 'Done\n');
    assert.equal(cleanTerminalOutput('almost\r'), 'almost');
  });

  it('applies backspaces', () => {
    assert.equal(cleanTerminalOutput('ab\bc|\b/\n'), 'ac/\n');
  });

  it('leaves plain text and unicode alone', () => {
    const text = 'naïve — 日本語 🙂\n  indented\n\nlast';
    assert.equal(cleanTerminalOutput(text), text);
  });
});

describe('the last output line (live progress)', () => {
  it('is the last non-empty cleaned line, trimmed', () => {
    assert.equal(lastOutputLine(`one\r\n${ESC}[32m  two  ${ESC}[0m\r\n\r\n   \r\n`), 'two');
    assert.equal(lastOutputLine('step 1/3\rstep 2/3'), 'step 2/3');
    assert.equal(lastOutputLine(`${ESC}]633;C${BEL}\r\n`), undefined);
  });

  it('is at most 200 characters', () => {
    const line = lastOutputLine('x'.repeat(500));
    assert.equal(line?.length, 200);
    assert.ok(line?.endsWith('…'));
  });

  it('reads only the tail of a long output, never a partial first line of it', () => {
    assert.equal(lastOutputLine(`${'a'.repeat(20_000)}\nlast line\n`), 'last line');
  });
});

describe('the run_command result text', () => {
  const base = { command: 'npm test', cwdLabel: '.', rawOutput: `${ESC}[32mok${ESC}[0m\r\n2 passing\r\n` };

  it('is the command with its folder, the cleaned output and the exit code', () => {
    const r = commandResultText({ ...base, ending: { kind: 'exit', code: 0 } });
    assert.equal(r.text, '$ npm test    (in .)\nok\n2 passing\n[exit code 0]');
    assert.equal(r.isError, false);
  });

  it('is an error on a non-zero exit code and on a timeout, but not when the user stopped it', () => {
    assert.equal(commandResultText({ ...base, ending: { kind: 'exit', code: 3 } }).isError, true);
    const timedOut = commandResultText({ ...base, ending: { kind: 'timeout', seconds: 120 } });
    assert.equal(timedOut.isError, true);
    assert.match(timedOut.text, /\n\[stopped after 120 s: timed out\]$/);
    const stopped = commandResultText({ ...base, ending: { kind: 'stopped' } });
    assert.equal(stopped.isError, false);
    assert.match(stopped.text, /\n\[stopped by the user\]$/);
    assert.match(commandResultText({ ...base, ending: { kind: 'closed' } }).text, /\[stopped: the user closed the terminal\]$/);
  });

  it('says when the shell did not report an exit code, and when there was no output', () => {
    const r = commandResultText({ ...base, rawOutput: '', cwdLabel: 'src', ending: { kind: 'exit', code: undefined } });
    assert.equal(r.text, '$ npm test    (in src)\n(no output)\n[exit code unknown: the shell did not report it]');
    assert.equal(r.isError, false);
  });

  it('keeps the head of an output past the cap, with a marker saying what was cut', () => {
    const raw = Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n');
    const r = commandResultText({ ...base, rawOutput: raw, ending: { kind: 'exit', code: 0 } }, 50);
    const lines = r.text.split('\n');
    assert.equal(lines[1], 'line 0');
    assert.match(r.text, /\n\[output cut here: the first 50 characters are shown; \d[\d,]* more were left out\]\n\[exit code 0\]$/);
    assert.ok(r.text.length < 200);
  });

  it('counts the raw output dropped while it ran in the marker', () => {
    const r = commandResultText({ ...base, rawOutput: 'head\n', droppedChars: 1234, ending: { kind: 'exit', code: 0 } });
    assert.match(r.text, /\nhead\n\[output cut here: the first 4 characters are shown; about 1,234 more were left out\]\n/);
  });
});

describe('the output of a running command', () => {
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('reports progress at once, then at most every interval, always ending on the last state', async () => {
    const seen: CallProgress[] = [];
    const out = new CommandOutput((p) => seen.push(p), 40);
    out.push('one\r\n');
    for (let i = 2; i <= 9; i++) out.push(`line ${i}\r\n`);
    assert.deepEqual(seen, [{ progress: 1, total: undefined, message: '1 line · one' }]);
    await sleep(80);
    assert.equal(seen.length, 2);
    assert.deepEqual(seen[1], { progress: 9, total: undefined, message: '9 lines · line 9' });
    out.finish();
  });

  it('never reports an unchanged state twice, nor anything after finish()', async () => {
    const seen: CallProgress[] = [];
    const out = new CommandOutput((p) => seen.push(p), 20);
    out.push('a\n');
    await sleep(30);
    out.push('');
    assert.equal(seen.length, 1);
    out.push('b\n');
    out.finish();
    await sleep(30);
    out.push('c\n');
    assert.equal(seen.length, 1);
    assert.equal(out.raw, 'a\nb\n');
  });

  it('keeps raw output up to its cap and counts the rest', () => {
    const out = new CommandOutput(undefined, 250, 10);
    out.push('12345678');
    out.push('abcdef');
    assert.equal(out.raw, '12345678ab');
    assert.equal(out.droppedChars, 4);
    out.finish();
  });
});
