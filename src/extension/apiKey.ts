import * as vscode from 'vscode';

const SECRET_KEY = 'quiver.anthropicApiKey';
export const API_KEY_ENV = 'ANTHROPIC_API_KEY';

/** The Anthropic API key: SecretStorage first (set by "Quiver: Set API Key"), else the environment. */
export class ApiKeyStore implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  private readonly subscription: vscode.Disposable;

  constructor(private readonly secrets: vscode.SecretStorage) {
    this.subscription = secrets.onDidChange((e) => {
      if (e.key === SECRET_KEY) this.changed.fire();
    });
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }

  async get(): Promise<string | undefined> {
    const stored = await this.secrets.get(SECRET_KEY);
    return stored || process.env[API_KEY_ENV] || undefined;
  }

  async promptAndStore(): Promise<void> {
    const value = await vscode.window.showInputBox({
      title: 'Quiver: Anthropic API key',
      prompt: `Stored in VS Code's secret storage, never in settings. Leave empty to remove it (then ${API_KEY_ENV} is used if set).`,
      password: true,
      ignoreFocusOut: true,
      validateInput: (v) => (v === '' || /^\S{10,}$/.test(v) ? undefined : 'An API key is one word of at least 10 characters, e.g. sk-ant-…'),
    });
    if (value === undefined) return;
    if (value === '') await this.secrets.delete(SECRET_KEY);
    else await this.secrets.store(SECRET_KEY, value);
    vscode.window.setStatusBarMessage(value === '' ? 'Quiver: API key removed' : 'Quiver: API key saved', 3000);
  }
}
