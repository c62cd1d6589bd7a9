// editor__run_command in the real editor: a terminal named "Quiver", output, exit code, folder,
// live progress, timeout and Stop. Which path ran (shell integration or the fallback
// pseudoterminal) is printed to the page console (.test-artifacts/e2e-host-console.log).
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as vscode from 'vscode';
import type { CallProgress } from '../../../src/core/elicitation/elicitation';
import type { ToolCallResult } from '../../../src/core/tools/toolSource';
import type { HandlerContext } from '../../../src/extension/editorTools/handler';
import { runCommand } from '../../../src/extension/editorTools/runCommand';

const logged: string[] = [];
let channel: vscode.LogOutputChannel | undefined;

/** The extension's log, with what run_command logs also kept in `logged`. */
function log(): vscode.LogOutputChannel {
  channel ??= vscode.window.createOutputChannel('Quiver e2e: run_command', { log: true });
  const real = channel;
  return new Proxy(real, {
    get(target, key) {
      if (key === 'info') {
        return (message: string, ...args: unknown[]) => {
          logged.push(message);
          console.log(`[run_command] ${message}`);
          target.info(message, ...args);
        };
      }
      return Reflect.get(target, key) as unknown;
    },
  });
}

function context(signal = new AbortController().signal, onProgress?: (p: CallProgress) => void): HandlerContext {
  return { signal, hooks: onProgress ? { onProgress } : {}, log: log() };
}

const textOf = (r: ToolCallResult): string => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');

const quiverTerminals = (): number => vscode.window.terminals.filter((t) => t.name === 'Quiver' && t.exitStatus === undefined).length;

/** Whether a process whose command line is exactly `cmd` is running. */
function running(cmd: string): boolean {
  return spawnSync('pgrep', ['-x', '-f', cmd]).status === 0;
}

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const t0 = Date.now();
  const value = await run();
  return { value, ms: Date.now() - t0 };
}

describe('editor__run_command', () => {
  after(() => {
    const paths = logged.map((l) => (l.includes('no shell integration') ? 'fallback (pseudoterminal)' : 'shell integration'));
    console.log(`[run_command] paths taken: ${paths.join(', ') || 'none'}`);
    channel?.dispose();
  });

  describe('in a terminal of the editor', function () {
    this.timeout(40_000);


    it('returns the output and the exit code, in a terminal named Quiver', async () => {
      const r = await runCommand({ command: 'echo hello; grep -q absent /dev/null' }, context());
      const text = textOf(r);
      console.log(`[run_command] result: ${JSON.stringify(text)}`);
      assert.equal(text.split('\n')[0], '$ echo hello; grep -q absent /dev/null    (in .)');
      assert.match(text, /\nhello\n/);
      assert.match(text, /\n\[exit code 1\]$/);
      assert.equal(r.isError, true);
      assert.ok(vscode.window.terminals.some((t) => t.name === 'Quiver'), 'a terminal named Quiver is open');
      assert.equal(logged.length, 1);
    });

    it('a line that calls exit runs in a shell of its own: its code comes back and the terminal\'s shell lives on', async () => {
      const before = logged.length;
      const r = await runCommand({ command: 'echo hi; exit 3' }, context());
      assert.match(textOf(r), /^\$ echo hi; exit 3 {4}\(in \.\)\nhi\n\[exit code 3\]$/);
      assert.match(logged[before] ?? '', /the line calls exit/);
      const after = await runCommand({ command: 'echo still here' }, context());
      assert.match(textOf(after), /\nstill here\n\[exit code 0\]$/);
      assert.doesNotMatch(logged.at(-1) ?? '', /pseudoterminal/, 'the next line goes to the terminal with shell integration again');
    });

    it('runs in the cwd folder it is given, and a missing one is an error', async () => {
      const root = vscode.workspace.workspaceFolders?.[0]?.uri;
      assert.ok(root);
      await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(root, 'sub', 'dir'));
      const r = await runCommand({ command: 'pwd', cwd: 'sub/dir' }, context());
      assert.match(textOf(r), /^\$ pwd {4}\(in sub\/dir\)\n.*\/sub\/dir\n\[exit code 0\]$/);
      assert.equal(r.isError, false);
      // The next command in the workspace folder again (a reused terminal moves back).
      const back = await runCommand({ command: 'pwd' }, context());
      assert.ok(textOf(back).split('\n')[1]?.endsWith(`/${root.path.split('/').pop() ?? ''}`), textOf(back));
      const missing = await runCommand({ command: 'pwd', cwd: 'no/such/folder' }, context());
      assert.equal(missing.isError, true);
      assert.match(textOf(missing), /does not exist/);
      const climbing = await runCommand({ command: 'pwd', cwd: '../x' }, context());
      assert.equal(climbing.isError, true);
      assert.match(textOf(climbing), /contains "\.\."/);
    });

    it('keeps every line of a multi-line output, without escape sequences, in the same terminal', async () => {
      const before = quiverTerminals();
      const r = await runCommand({ command: "printf 'one\\ntwo\\n\\033[31mthree\\033[0m\\n'; for i in 4 5; do echo line $i; done" }, context());
      assert.match(textOf(r), /\none\ntwo\nthree\nline 4\nline 5\n\[exit code 0\]$/);
      assert.ok(!textOf(r).includes('\x1b'), 'no escape sequence is left');
      assert.equal(quiverTerminals(), before, 'the idle Quiver terminal was reused');
    });

    it('reports the last output line as live progress', async () => {
      const seen: CallProgress[] = [];
      const r = await runCommand({ command: "echo first; sleep 1; echo 'step two'; sleep 1" }, context(undefined, (p) => seen.push(p)));
      assert.equal(r.isError, false);
      console.log(`[run_command] progress: ${JSON.stringify(seen)}`);
      assert.ok(seen.length >= 1, 'progress was reported');
      assert.ok(seen.some((p) => p.message === '1 line · first' || p.message === '2 lines · step two'), JSON.stringify(seen));
      assert.ok(seen.every((p) => p.total === undefined && p.progress > 0));
    });

    it('stops a command at its timeout', async () => {
      const { value: r, ms } = await timed(() => runCommand({ command: 'sleep 601', timeout_seconds: 2 }, context()));
      console.log(`[run_command] timeout resolved after ${ms} ms`);
      assert.ok(ms < 6_000, `resolved after ${ms} ms`);
      assert.match(textOf(r), /\n\[stopped after 2 s: timed out\]$/);
      assert.equal(r.isError, true);
      assert.equal(running('sleep 601'), false, 'the command was ended');
    });

    it('stops a command on Stop', async () => {
      const stop = new AbortController();
      setTimeout(() => stop.abort(), 1_000);
      const { value: r, ms } = await timed(() => runCommand({ command: 'sleep 602' }, context(stop.signal)));
      console.log(`[run_command] Stop resolved after ${ms} ms`);
      assert.ok(ms < 5_000, `resolved after ${ms} ms`);
      assert.match(textOf(r), /\n\[stopped by the user\]$/);
      assert.equal(r.isError, false);
      assert.equal(running('sleep 602'), false, 'the command was ended');
      // The terminal is usable again afterwards.
      const next = await runCommand({ command: 'echo after' }, context());
      assert.match(textOf(next), /\nafter\n\[exit code 0\]$/);
    });
  });

  describe('without shell integration (the fallback)', function () {
    this.timeout(40_000);
    const setting = () => vscode.workspace.getConfiguration('terminal.integrated');
    let saved: boolean | undefined;

    before(async () => {
      const root = vscode.workspace.workspaceFolders?.[0]?.uri;
      assert.ok(root);
      await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(root, 'sub'));
      saved = setting().inspect<boolean>('shellIntegration.enabled')?.workspaceValue;
      await setting().update('shellIntegration.enabled', false, vscode.ConfigurationTarget.Workspace);
    });
    after(async () => {
      await setting().update('shellIntegration.enabled', saved, vscode.ConfigurationTarget.Workspace);
    });

    it('runs the shell itself, shows it in a Quiver terminal, and returns the output and the exit code', async () => {
      const count = logged.length;
      const r = await runCommand({ command: "printf '\\033[1mbold\\033[0m\\n'; echo 'to stderr' >&2; exit 4", cwd: 'sub' }, context());
      assert.match(logged[count] ?? '', /no shell integration|the line calls exit/);
      assert.equal(textOf(r), "$ printf '\\033[1mbold\\033[0m\\n'; echo 'to stderr' >&2; exit 4    (in sub)\nbold\nto stderr\n[exit code 4]");
      assert.equal(r.isError, true);
      assert.ok(quiverTerminals() >= 1);
    });

    it('ends the process group on Stop and at the timeout', async () => {
      // Stop half a second after the command started (on a loaded machine, 1 s after the call may come before).
      const stop = new AbortController();
      const onProgress = () => setTimeout(() => stop.abort(), 500);
      const stopped = await timed(() => runCommand({ command: 'echo started; sleep 603 & sleep 604; wait' }, context(stop.signal, onProgress)));
      assert.ok(stopped.ms < 5_000, `resolved after ${stopped.ms} ms`);
      assert.match(textOf(stopped.value), /\nstarted\n\[stopped by the user\]$/);
      const timedOut = await timed(() => runCommand({ command: 'sleep 605', timeout_seconds: 1 }, context()));
      assert.ok(timedOut.ms < 5_000, `resolved after ${timedOut.ms} ms`);
      assert.match(textOf(timedOut.value), /\n\[stopped after 1 s: timed out\]$/);
      for (const cmd of ['sleep 603', 'sleep 604', 'sleep 605']) assert.equal(running(cmd), false, `${cmd} was ended`);
    });
  });
});
