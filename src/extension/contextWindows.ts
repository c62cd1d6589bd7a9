import * as vscode from 'vscode';
import type { ModelCapabilities } from '../core/models';
import { fallbackCapabilities } from '../providers/anthropic/modelTable';

/**
 * Each model's context window as requests see it: `max_input_tokens` from `/v1/models`, asked once
 * per model through the configured client (whose models list is shared, so this costs no extra
 * call after the first turn), and the built-in table until it answers or where it cannot.
 */
export class ContextWindows implements vscode.Disposable {
  private readonly known = new Map<string, number>();
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when the models list gave a model a window other than the table's. */
  readonly onDidChange = this.changed.event;

  constructor(private readonly capabilities: (model: string, signal: AbortSignal) => Promise<ModelCapabilities>) {}

  sizeOf(model: string): number {
    const known = this.known.get(model);
    if (known !== undefined) return known;
    const table = fallbackCapabilities(model).contextWindow;
    // Asked once: until it answers the table's figure stands in.
    this.known.set(model, table);
    void this.capabilities(model, new AbortController().signal).then((found) => {
      this.known.set(model, found.contextWindow);
      if (found.contextWindow !== table) this.changed.fire();
    }, () => undefined);
    return table;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
