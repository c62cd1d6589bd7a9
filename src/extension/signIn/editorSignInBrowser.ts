import * as vscode from 'vscode';
import type { SignInBrowser, SignInReason } from '../../mcp';

const ASK: Readonly<Record<Exclude<SignInReason, 'signIn'>, (server: string) => string>> = {
  toolCall: (server) => `MCP server "${server}" needs you to sign in before its tool can run. Sign in with your browser?`,
};

/**
 * The editor's side of sign-in: the page opens in the user's browser (vscode.env.openExternal),
 * asked first unless the user clicked Sign In; the loopback redirect goes through
 * asExternalUri so a remote window forwards its port.
 */
export const editorSignInBrowser: SignInBrowser = {
  async open(url, { server, reason }) {
    if (reason !== 'signIn') {
      const choice = await vscode.window.showInformationMessage(ASK[reason](server), { modal: true }, 'Sign In');
      if (choice !== 'Sign In') return false;
    }
    return vscode.env.openExternal(vscode.Uri.parse(url.href, true));
  },
  async externalize(url) {
    const external = await vscode.env.asExternalUri(vscode.Uri.parse(url.href, true));
    return new URL(external.toString(true));
  },
};
