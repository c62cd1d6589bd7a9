/**
 * Runs server starts at most `limit` at a time. Every start of a Node MCP server costs a few
 * hundred milliseconds of CPU; seventy at once on two cores share the CPU evenly, so all of them
 * (and the editor beside them) crawl for most of a minute and come up together at the end. In
 * turns, the first servers are up within a second and the editor keeps its share.
 */
export class StartQueue {
  private running = 0;
  private readonly waiting: { readonly key: string; readonly start: () => void }[] = [];

  constructor(private readonly limit: number) {}

  /** Runs `task` when a slot is free; `urgent` (a start the user is waiting for) goes first. */
  run<T>(key: string, task: () => Promise<T>, urgent: boolean): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = (): void => {
        this.running++;
        task().then(resolve, reject).finally(() => {
          this.running--;
          this.pump();
        });
      };
      if (urgent) this.waiting.unshift({ key, start });
      else this.waiting.push({ key, start });
      this.pump();
    });
  }

  /** Moves a waiting start to the front (a turn needs that server now). */
  hurry(key: string): void {
    const i = this.waiting.findIndex((w) => w.key === key);
    if (i > 0) this.waiting.unshift(...this.waiting.splice(i, 1));
  }

  private pump(): void {
    while (this.running < this.limit && this.waiting.length > 0) this.waiting.shift()?.start();
  }
}
