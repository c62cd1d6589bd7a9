import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { McpManager, type McpManagerOptions } from '../../../src/mcp/manager';
import type { ConfigSource, RestingServers, StdioServerConfig } from '../../../src/mcp/config';

const root = resolve(__dirname, '../../../..');
export const USER: ConfigSource = { kind: 'userSettings' };

export function fixture(file: string): string {
  return resolve(root, 'test/fixtures/mcp', file);
}

export function npmServer(pkg: 'everything' | 'filesystem' | 'memory'): string {
  return resolve(root, 'node_modules/@modelcontextprotocol', `server-${pkg}`, 'dist/index.js');
}

export function nodeServer(name: string, script: string, args: readonly string[] = [], extra: Partial<StdioServerConfig> = {}): StdioServerConfig {
  return { transport: 'stdio', name, command: process.execPath, args: [script, ...args], env: {}, cwd: undefined, source: USER, ...extra };
}

export interface CapturedLog {
  readonly lines: string[];
  readonly logger: McpManagerOptions['logger'];
}

export function captureLog(): CapturedLog {
  const lines: string[] = [];
  return { lines, logger: { info: (m) => lines.push(`info ${m}`), warn: (m) => lines.push(`warn ${m}`), error: (m) => lines.push(`error ${m}`) } };
}

/** Managers made by `manager()` in one test are disposed after it, so no test leaks processes. */
const live: McpManager[] = [];

export function manager(options: Partial<McpManagerOptions> = {}): { manager: McpManager; log: CapturedLog } {
  const log = captureLog();
  const m = new McpManager({ logger: log.logger, workspaceTrusted: true, restart: { maxAttempts: 0 }, ...options });
  live.push(m);
  return { manager: m, log };
}

export async function disposeAll(): Promise<void> {
  await Promise.all(live.splice(0).map((m) => m.dispose()));
}

export async function waitFor(what: string, predicate: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** True when signal 0 cannot reach the pid: the process is gone. */
export function isGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
}

export async function assertGone(pid: number | undefined): Promise<void> {
  assert.ok(pid !== undefined && pid > 0, 'expected a pid');
  await waitFor(`pid ${pid} to exit`, () => isGone(pid), 5000);
}

export function textOf(result: { content: readonly { type: string; text?: string }[] }): string {
  return result.content.map((c) => c.text ?? `[${c.type}]`).join('\n');
}

/** Resting sets with only servers whose every tool is off. */
export function offOnly(names: readonly string[] = []): RestingServers {
  return { off: new Set(names), idle: new Set() };
}

export const signal = (): AbortSignal => new AbortController().signal;
