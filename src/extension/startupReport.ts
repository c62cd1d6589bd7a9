import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import type { McpManager } from '../mcp';

/**
 * Logs, once the first server configuration has every server settled, how long start-up took
 * and how long the extension host's event loop was held meanwhile: the figure a user with many
 * servers can check (and `npm run bench` reads) when the editor feels slow at window open.
 */
export function reportStartup(manager: McpManager, log: { info(message: string): void }): void {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const started = performance.now();
  const unsubscribe = manager.onDidChange(() => {
    unsubscribe();
    void manager.whenIdle().then(() => {
      delay.disable();
      const statuses = manager.statuses();
      const up = statuses.filter((s) => s.state === 'running').length;
      const idle = statuses.filter((s) => s.state === 'idle').length;
      const ms = (ns: number): string => (ns / 1e6).toFixed(1);
      log.info(`start-up: ${up} of ${statuses.length} servers up, ${idle} idle on their cached catalogues; all up in ${Math.round(performance.now() - started)} ms; event-loop delay p99 ${ms(delay.percentile(99))} ms, max ${ms(delay.max)} ms`);
    });
  });
}
