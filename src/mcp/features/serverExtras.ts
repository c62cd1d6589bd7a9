import type { ServerConnection } from '../connection/serverConnection';
import type { ServerPrompt, ServerResource } from './serverFeatures';

/** A running server's prompts and resources: extras, read after it starts and at its `list_changed`, so nothing waits for them. */
export class ServerExtras {
  prompts: readonly ServerPrompt[] = [];
  resources: readonly ServerResource[] = [];

  clear(): void {
    this.prompts = [];
    this.resources = [];
  }

  /** Reads them from `connection`; true when they were taken (`current()` still held once they came). */
  async read(connection: ServerConnection, current: () => boolean): Promise<boolean> {
    const features = await connection.listFeatures().catch(() => undefined);
    if (features === undefined || !current()) return false;
    this.prompts = features.prompts;
    this.resources = features.resources;
    return true;
  }
}
