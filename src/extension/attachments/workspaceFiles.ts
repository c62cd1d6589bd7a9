import * as vscode from 'vscode';
import { rankFiles } from '../../core/attachments';
import { displayPath } from './editorAttachments';

const MAX_FILES = 20_000;
const MAX_SUGGESTIONS = 30;
/** A list this fresh answers the next keystrokes without searching the disk again. */
const FRESH_MS = 5_000;
const SKIPPED = /(^|\/)(node_modules|\.git)\//;

/** Workspace files for `#file:` completion, listed at most every few seconds and ranked per query. */
export class WorkspaceFiles {
  private listed: { readonly at: number; readonly paths: Promise<readonly string[]> } | undefined;

  async complete(query: string): Promise<string[]> {
    return rankFiles(query, await this.paths(), MAX_SUGGESTIONS);
  }

  private paths(): Promise<readonly string[]> {
    if (!this.listed || Date.now() - this.listed.at > FRESH_MS) {
      const paths = vscode.workspace.findFiles('**/*', undefined, MAX_FILES).then((uris) => uris.map(displayPath).filter((p) => !SKIPPED.test(p)));
      this.listed = { at: Date.now(), paths: Promise.resolve(paths) };
    }
    return this.listed.paths;
  }
}
