import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * `pid` and all its descendants, root first. Servers started through `npx`, `uvx` or a shell
 * run as grandchildren, so stopping only the direct child would leak them.
 */
export async function processTree(pid: number): Promise<number[]> {
  if (process.platform === 'win32') return [pid];
  const table = await psTable();
  const children = new Map<number, number[]>();
  for (const [child, parent] of table) children.set(parent, [...(children.get(parent) ?? []), child]);
  const tree: number[] = [];
  const queue = [pid];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    tree.push(next);
    queue.push(...(children.get(next) ?? []));
  }
  return tree;
}

/**
 * Ends every process of `pids`: SIGTERM first, SIGKILL for those still alive after `graceMs`.
 * Resolves once all are gone or after a final bounded wait.
 */
export async function killProcesses(pids: readonly number[], graceMs: number): Promise<void> {
  if (process.platform === 'win32') {
    await Promise.all(pids.map((pid) => run('taskkill', ['/pid', String(pid), '/T', '/F'])));
    return;
  }
  signal(pids, 'SIGTERM');
  if (await waitUntilGone(pids, graceMs)) return;
  signal(pids, 'SIGKILL');
  await waitUntilGone(pids, 2000);
}

/** True while `pid` names a live process (a zombie awaiting its reaper counts as gone). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  return !isZombie(pid);
}

export async function waitUntilGone(pids: readonly number[], timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (pids.some(isAlive)) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return true;
}

function signal(pids: readonly number[], name: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, name);
    } catch {
      // Already gone: nothing to do.
    }
  }
}

function isZombie(pid: number): boolean {
  if (process.platform !== 'linux') return false;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return false;
  }
}

async function psTable(): Promise<[number, number][]> {
  const out = await run('ps', ['-A', '-o', 'pid=,ppid=']);
  return out
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number))
    .filter((p): p is [number, number] => p.length === 2 && Number.isInteger(p[0]) && Number.isInteger(p[1]));
}

/** Output of a helper command, or '' when it failed: callers treat that as "nothing found". */
function run(command: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve) => {
    execFile(command, args, { windowsHide: true }, (error, stdout) => resolve(error ? '' : stdout));
  });
}
