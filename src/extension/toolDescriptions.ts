import * as vscode from 'vscode';
import { markdownText } from '../core/text';
import { allItems, type ToolOverviewItem } from '../core/overhead';
import { showMarkdownPreview } from './markdownPreview';
import type { ToolsModel } from './toolsModel';

const SCHEME = 'quiver-tool';

/**
 * Describe's documents: read-only virtual markdown (`quiver-tool:/<name>.md`) shown as a preview,
 * rendered from the Tools model when opened and again whenever it changes. Never dirty, so closing
 * one asks nothing.
 */
export class ToolDescriptions implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly registration: vscode.Disposable;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly model: ToolsModel) {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(SCHEME, this);
    this.subscription = model.onDidChange(() => {
      for (const doc of vscode.workspace.textDocuments) if (doc.uri.scheme === SCHEME) this.changed.fire(doc.uri);
    });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const name = uri.path.replace(/^\//, '').replace(/\.md$/, '');
    const item = allItems(this.model.overview()).find((i) => i.tool.name === name);
    return item ? describe(item) : `# ${markdownText(name)}\n\n_Not listed now: its server is not running._\n`;
  }

  /** Shows the description rendered, as the README promises (the markdown preview, not its source). */
  show(toolName: string): Promise<void> {
    return showMarkdownPreview(vscode.Uri.from({ scheme: SCHEME, path: `/${toolName}.md` }));
  }

  dispose(): void {
    this.subscription.dispose();
    this.registration.dispose();
    this.changed.dispose();
  }
}

function describe(item: ToolOverviewItem): string {
  const { tool } = item;
  return [
    // Names hold underscores, which the preview would otherwise read as emphasis.
    `# ${markdownText(tool.name)}`, '',
    `Server: ${markdownText(tool.server ?? 'Quiver (builtin)')} · tool: ${markdownText(tool.toolName)} · availability: ${item.availability} · ~${item.tokens} tokens (estimate)`, '',
    tool.description || '_No description._', '',
    '## Input schema', '', '```json', JSON.stringify(tool.inputSchema, null, 2), '```', '',
  ].join('\n');
}
