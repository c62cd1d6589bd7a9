import { spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { constants } from 'node:os';
import * as vscode from 'vscode';
import { CommandOutput, commandResultText, type CommandEnding } from '../../core/editorTools';
import { textResult, type ReadHandler } from './handler';
import { PathRefused, resolveToolPath, type ResolvedPath } from './workspacePaths';

/**
 * `editor__run_command`: runs a command line in a terminal the user sees, named "Quiver". With
 * shell integration the command goes to the terminal's own shell (`executeCommand`) and its output
 * and exit code come back from the editor; without it (not up within a few seconds) Quiver runs
 * the shell itself and shows what it writes in a pseudoterminal. Timeout and Stop end the command.
 */

const NAME = 'Quiver';
const DEFAULT_TIMEOUT_SECONDS = 120;
const INTEGRATION_WAIT_MS = 5_000;
/** Most time a new terminal's shell has to start before shell integration is given up. */
const STARTUP_WAIT_MS = 20_000;
/** After a terminal came up without shell integration, later calls go straight to the fallback for this long. */
const INTEGRATION_RETRY_MS = 10 * 60_000;
/** How long a command has to end after Ctrl+C / SIGTERM before its terminal is closed / it is killed. */
const GRACE_MS = 2_000;

/** Quiver's terminals with shell integration, and whether a command of Quiver's runs in each. */
const shells = new Map<vscode.Terminal, { busy: boolean }>();
/** Quiver's fallback terminals (pseudoterminals showing what Quiver's own processes write). */
const pipes = new Set<PipeTerminal>();
let integrationMissedAt: number | undefined;

export const runCommand: ReadHandler<'run_command'> = async (input, ctx) => {
  const folder = await workingFolder(input.cwd);
  if (typeof folder === 'string') return textResult(folder, true);
  const seconds = input.timeout_seconds ?? DEFAULT_TIMEOUT_SECONDS;
  // A line that calls `exit` would end the terminal's own shell and lose its code: it runs in a shell of its own.
  const ownShell = endsItsShell(input.command);
  const shell = ownShell ? undefined : await integratedShell(folder, ctx.signal);
  const out = new CommandOutput(ctx.hooks.onProgress);
  const stop = stopper(ctx.signal, seconds);
  let ending: CommandEnding;
  try {
    if (ctx.signal.aborted) return textResult('Stopped by the user before the command started: it did not run.');
    if (shell) {
      ctx.log.info(`run_command: shell integration, in ${folder.label}: ${input.command}`);
      ending = await runIntegrated(shell.terminal, shell.integration, input.command, out, stop.signal, stop.ending);
    } else {
      ctx.log.info(`run_command: ${ownShell ? 'the line calls exit' : 'no shell integration'}, running the shell itself (pseudoterminal), in ${folder.label}: ${input.command}`);
      const ran = await runPiped(input.command, folder, out, stop.signal, stop.ending);
      if (typeof ran === 'string') return textResult(ran, true);
      ending = ran;
    }
  } finally {
    if (shell && shells.has(shell.terminal)) shells.set(shell.terminal, { busy: false });
    stop.dispose();
    out.finish();
  }
  const { text, isError } = commandResultText({ command: input.command, cwdLabel: folder.label, rawOutput: out.raw, droppedChars: out.droppedChars, ending });
  return textResult(text, isError);
};

/** The folder to run in, or why not (a message for the model). */
async function workingFolder(cwd: string | undefined): Promise<ResolvedPath | string> {
  try {
    const folder = await resolveToolPath(cwd ?? '.');
    const found = await stat(folder.real).catch(() => undefined);
    if (found === undefined) return `The folder "${folder.label}" does not exist.`;
    if (!found.isDirectory()) return `"${folder.label}" is not a folder: cwd must name a folder.`;
    return folder;
  } catch (err) {
    if (err instanceof PathRefused) return err.message;
    throw err;
  }
}

/** An idle Quiver terminal with shell integration in `folder` (reused, or new), or undefined when shell integration does not come up. */
async function integratedShell(folder: ResolvedPath, signal: AbortSignal): Promise<{ terminal: vscode.Terminal; integration: vscode.TerminalShellIntegration } | undefined> {
  if (!vscode.workspace.getConfiguration('terminal.integrated').get<boolean>('shellIntegration.enabled', true)) return undefined;
  for (const [terminal, state] of shells) {
    const integration = terminal.shellIntegration;
    if (terminal.exitStatus !== undefined || !vscode.window.terminals.includes(terminal)) shells.delete(terminal);
    if (state.busy || integration === undefined || !shells.has(terminal)) continue;
    shells.set(terminal, { busy: true });
    if (await moveTo(terminal, integration, folder, signal)) {
      terminal.show(true);
      return { terminal, integration };
    }
    if (shells.has(terminal)) shells.set(terminal, { busy: false });
  }
  if (signal.aborted || (integrationMissedAt !== undefined && Date.now() - integrationMissedAt < INTEGRATION_RETRY_MS)) return undefined;
  const terminal = vscode.window.createTerminal({ name: NAME, cwd: folder.uri.fsPath, isTransient: true });
  terminal.show(true);
  const integration = await integrationOf(terminal, signal);
  if (integration === undefined) {
    if (!signal.aborted) integrationMissedAt = Date.now();
    terminal.dispose();
    return undefined;
  }
  integrationMissedAt = undefined;
  shells.set(terminal, { busy: true });
  return { terminal, integration };
}

/**
 * The terminal's shell integration, given INTEGRATION_WAIT_MS from the start of its shell (the
 * first terminal of a window can take seconds to start: code-server's took 6 s); undefined when it does not come.
 */
function integrationOf(terminal: vscode.Terminal, signal: AbortSignal): Promise<vscode.TerminalShellIntegration | undefined> {
  const ready = (si: vscode.TerminalShellIntegration | undefined): si is vscode.TerminalShellIntegration => si !== undefined && typeof si.executeCommand === 'function';
  if (ready(terminal.shellIntegration)) return Promise.resolve(terminal.shellIntegration);
  return new Promise((resolve) => {
    let settled = false;
    const done = (): void => {
      settled = true;
      sub.dispose();
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve(ready(terminal.shellIntegration) ? terminal.shellIntegration : undefined);
    };
    const sub = vscode.window.onDidChangeTerminalShellIntegration((e) => { if (e.terminal === terminal && ready(e.shellIntegration)) done(); });
    let timer = setTimeout(done, STARTUP_WAIT_MS);
    void Promise.resolve(terminal.processId).then(() => {
      if (settled) return;
      clearTimeout(timer);
      timer = setTimeout(done, INTEGRATION_WAIT_MS);
    }, () => undefined);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** Makes a reused terminal's shell go to `folder` (a `cd` the user sees); false when it cannot. */
async function moveTo(terminal: vscode.Terminal, si: vscode.TerminalShellIntegration, folder: ResolvedPath, signal: AbortSignal): Promise<boolean> {
  const here = si.cwd?.fsPath;
  if (here === folder.uri.fsPath || here === folder.real) return true;
  if (process.platform === 'win32') return false;
  const cd = `cd '${folder.uri.fsPath.replaceAll("'", "'\\''")}'`;
  const ending = await runIntegrated(terminal, si, cd, undefined, AbortSignal.any([signal, AbortSignal.timeout(INTEGRATION_WAIT_MS)]), () => ({ kind: 'stopped' }));
  return ending.kind === 'exit' && ending.code === 0 && !signal.aborted;
}

/**
 * True when the command line calls `exit`: sent to the terminal's interactive shell it would end
 * that shell (the terminal closes and the code is lost), so it runs in a shell Quiver starts,
 * shown in a Quiver terminal, whose exit code is the command's. (Wrapping it in `( … )` instead
 * hides it from shell integration's start mark, and the command never reports an end.)
 */
function endsItsShell(command: string): boolean {
  return /(^|[;&|(\s])exit(\s|;|$)/m.test(command);
}

/** Runs `command` with the terminal's shell integration; on `stop`, Ctrl+C, then closes the terminal if the command does not end. */
async function runIntegrated(
  terminal: vscode.Terminal, si: vscode.TerminalShellIntegration, command: string, out: CommandOutput | undefined, stop: AbortSignal, stopped: () => CommandEnding,
): Promise<CommandEnding> {
  const exited = deferred<CommandEnding>();
  const execution = si.executeCommand(command);
  const stream = execution.read();
  const subs = [
    vscode.window.onDidEndTerminalShellExecution((e) => { if (e.execution === execution) exited.resolve({ kind: 'exit', code: e.exitCode }); }),
    vscode.window.onDidCloseTerminal((t) => { if (t === terminal) exited.resolve({ kind: 'closed' }); }),
  ];
  const reading = (async () => { for await (const chunk of stream) out?.push(chunk); })().catch(() => undefined);
  try {
    const first = await Promise.race([exited.promise, aborted(stop)]);
    if (first !== undefined) {
      if (first.kind === 'exit') await Promise.race([reading, sleep(1_000)]);
      else shells.delete(terminal);
      return first;
    }
    terminal.sendText('\x03', false);
    if ((await Promise.race([exited.promise, sleep(GRACE_MS)])) === undefined) {
      shells.delete(terminal);
      terminal.dispose();
    }
    await Promise.race([reading, sleep(200)]);
    return stopped();
  } finally {
    for (const s of subs) s.dispose();
  }
}

/** The fallback: runs the shell as Quiver's own process group and shows what it writes in a pseudoterminal. A string says why it could not start. */
async function runPiped(command: string, folder: ResolvedPath, out: CommandOutput, stop: AbortSignal, stopped: () => CommandEnding): Promise<CommandEnding | string> {
  const windows = process.platform === 'win32';
  const shell = windows ? (process.env.ComSpec ?? 'cmd.exe') : (process.env.SHELL || '/bin/bash');
  const view = [...pipes].find((p) => !p.busy && !p.closed) ?? new PipeTerminal();
  view.busy = true;
  view.reveal();
  view.show(`\x1b[2m${folder.label}\x1b[0m $ ${command}\n`);
  const child = spawn(shell, windows ? ['/d', '/s', '/c', command] : ['-c', command], { cwd: folder.uri.fsPath, detached: !windows, stdio: ['ignore', 'pipe', 'pipe'], windowsVerbatimArguments: windows });
  const kill = (sig: NodeJS.Signals): void => {
    try {
      if (windows || child.pid === undefined) child.kill(sig);
      else process.kill(-child.pid, sig);
    } catch { /* already gone */ }
  };
  const exited = deferred<CommandEnding | string>();
  const drained = deferred<undefined>();
  const viewClosed = deferred<CommandEnding>();
  const write = (chunk: string): void => {
    out.push(chunk);
    view.show(chunk);
  };
  child.stdout.setEncoding('utf8').on('data', write);
  child.stderr.setEncoding('utf8').on('data', write);
  child.on('error', (err) => exited.resolve(`Could not run ${shell}: ${err.message}`));
  child.on('exit', (code, signal) => exited.resolve({ kind: 'exit', code: code ?? (signal ? 128 + (constants.signals[signal] ?? 0) : undefined) }));
  child.on('close', () => drained.resolve(undefined));
  view.onInterrupt = () => kill('SIGINT');
  view.onClose = () => viewClosed.resolve({ kind: 'closed' });
  try {
    const first = await Promise.race([exited.promise, aborted(stop), viewClosed.promise]);
    let ending: CommandEnding | string;
    if (first === undefined || (typeof first !== 'string' && first.kind === 'closed')) {
      ending = first ?? stopped();
      kill('SIGTERM');
      if ((await Promise.race([exited.promise, sleep(GRACE_MS)])) === undefined) {
        kill('SIGKILL');
        await Promise.race([exited.promise, sleep(500)]);
      }
    } else {
      ending = first;
      await Promise.race([drained.promise, sleep(500)]);
    }
    view.show(typeof ending === 'string' ? `${ending}\n` : `\x1b[2m[${ending.kind === 'exit' ? `exit code ${ending.code ?? '?'}` : ending.kind === 'timeout' ? 'timed out' : 'stopped'}]\x1b[0m\n\n`);
    return ending;
  } finally {
    child.stdout.off('data', write);
    child.stderr.off('data', write);
    view.onInterrupt = undefined;
    view.onClose = undefined;
    view.busy = false;
  }
}

/** A terminal showing what Quiver's own process writes; Ctrl+C in it stops the command, closing it ends it. */
class PipeTerminal implements vscode.Pseudoterminal {
  private readonly writer = new vscode.EventEmitter<string>();
  readonly onDidWrite = this.writer.event;
  private readonly terminal: vscode.Terminal;
  private pending: string[] | undefined = [];
  busy = false;
  closed = false;
  onInterrupt: (() => void) | undefined;
  onClose: (() => void) | undefined;

  constructor() {
    this.terminal = vscode.window.createTerminal({ name: NAME, pty: this, isTransient: true });
    pipes.add(this);
  }

  reveal(): void {
    this.terminal.show(true);
  }

  open(): void {
    for (const text of this.pending ?? []) this.writer.fire(text);
    this.pending = undefined;
  }

  close(): void {
    this.closed = true;
    pipes.delete(this);
    this.onClose?.();
    this.writer.dispose();
  }

  handleInput(data: string): void {
    if (data.includes('\x03')) this.onInterrupt?.();
  }

  show(text: string): void {
    if (this.closed) return;
    const crlf = text.replace(/\r?\n/g, '\r\n');
    if (this.pending) this.pending.push(crlf);
    else this.writer.fire(crlf);
  }
}

/** One signal for Stop and the timeout, and which of them came first. */
function stopper(signal: AbortSignal, seconds: number): { signal: AbortSignal; ending: () => CommandEnding; dispose: () => void } {
  const controller = new AbortController();
  let why: CommandEnding | undefined;
  const end = (ending: CommandEnding): void => {
    why ??= ending;
    controller.abort();
  };
  const onAbort = (): void => end({ kind: 'stopped' });
  signal.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => end({ kind: 'timeout', seconds }), seconds * 1000);
  if (signal.aborted) onAbort();
  return {
    signal: controller.signal,
    ending: () => why ?? { kind: 'stopped' },
    dispose: () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    },
  };
}

function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** Resolves to undefined once `signal` aborts (and never before). */
function aborted(signal: AbortSignal): Promise<undefined> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve(undefined);
    else signal.addEventListener('abort', () => resolve(undefined), { once: true });
  });
}

function sleep(ms: number): Promise<undefined> {
  return new Promise((resolve) => setTimeout(() => resolve(undefined), ms));
}
