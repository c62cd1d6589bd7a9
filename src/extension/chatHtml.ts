/** What the chat page needs from the webview; strings so the page can be built and tested without vscode. */
export interface ChatHtmlParts {
  readonly cspSource: string;
  readonly nonce: string;
  readonly scriptUri: string;
  readonly styleUris: readonly string[];
}

function attr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * The Content-Security-Policy of the chat: nothing by default; the bundle runs only by nonce;
 * styles and fonts only from the extension's own files; images only from those files or data:
 * (tool output images). No inline script or style, no eval, no frames, no network.
 */
export function chatCsp(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `img-src ${cspSource} data:`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-src 'none'",
  ].join('; ');
}

export function buildChatHtml(p: ChatHtmlParts): string {
  const styles = p.styleUris.map((u) => `<link rel="stylesheet" href="${attr(u)}">`).join('\n    ');
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <meta http-equiv="Content-Security-Policy" content="${attr(chatCsp(p.cspSource, p.nonce))}">
    <meta name="viewport" content="width=device-width, initial-scale=1.0">
    ${styles}
    <title>Quiver Chat</title>
  </head>
  <body>
    <script nonce="${attr(p.nonce)}" src="${attr(p.scriptUri)}"></script>
  </body>
</html>`;
}
