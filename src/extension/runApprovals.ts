import * as vscode from 'vscode';
import type { RunTrust } from '../core/availability';

const STATE_KEY = 'quiver.alwaysAllowed';

/**
 * Remote windows whose Machine settings a repository writes: a dev container applies the
 * `customizations.vscode.settings` of the repository's devcontainer.json as Machine settings,
 * and VS Code reports those merged with User settings, so there the User-scope value cannot
 * tell the user's own word from the repository's.
 */
const REPOSITORY_WRITTEN_MACHINE_SETTINGS: ReadonlySet<string> = new Set(['dev-container', 'attached-container', 'codespaces']);

/**
 * Where "Always allow this tool" is kept. Normally in User settings (`run: "unattended"`); in a
 * window whose User-scope value a repository can write (see above), in the extension's global
 * state instead, which no file of a repository reaches.
 */
export class RunApprovals implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly state: vscode.Memento,
    private readonly remoteName: string | undefined = vscode.env.remoteName,
  ) {}

  /** True when User settings are the user's own, so approvals live there. */
  get inUserSettings(): boolean {
    return !REPOSITORY_WRITTEN_MACHINE_SETTINGS.has(this.remoteName ?? '');
  }

  trust(): RunTrust {
    return { userScopeTrusted: this.inUserSettings, approvals: this.keys() };
  }

  /** Keys approved in global state (always empty where approvals live in User settings). */
  keys(): string[] {
    return this.inUserSettings ? [] : [...this.state.get<readonly string[]>(STATE_KEY, [])];
  }

  async add(key: string): Promise<void> {
    await this.state.update(STATE_KEY, [...new Set([...this.keys(), key])]);
    this.changed.fire();
  }

  async remove(keys: readonly string[]): Promise<void> {
    await this.state.update(STATE_KEY, this.keys().filter((k) => !keys.includes(k)));
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }
}
