/**
 * Runs a task one at a time: asked while it runs, it runs once more when it ends, however often
 * it was asked meanwhile (a burst of `list_changed` notifications costs two listings, not one each).
 * The task must not reject: it handles its own failures.
 */
export class CoalescingRunner {
  private running = false;
  private again = false;

  constructor(private readonly task: () => Promise<void>) {}

  request(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    void this.drain().finally(() => {
      this.running = false;
    });
  }

  private async drain(): Promise<void> {
    do {
      this.again = false;
      await this.task();
    } while (this.again);
  }
}
