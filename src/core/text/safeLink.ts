/** Schemes a link from model output may open; everything else (command:, file:, vscode:, javascript:) is refused. */
const OPENABLE = new Set(['http:', 'https:', 'mailto:']);

/**
 * The normalized URL to open for a link the user clicked in the chat, or null when it must not
 * be opened. Model output is untrusted, so the check happens here even though the webview's
 * sanitizer already drops other schemes.
 */
/** A link a server asks the user to open (URL-mode elicitation): the web only, never mail or anything else. */
export function webHref(href: string): string | null {
  const safe = openableHref(href);
  return safe !== null && /^https?:/i.test(safe) ? safe : null;
}

export function openableHref(href: string): string | null {
  let url: URL;
  try {
    url = new URL(href.trim());
  } catch {
    return null;
  }
  if (!OPENABLE.has(url.protocol)) return null;
  if (url.protocol !== 'mailto:' && url.hostname === '') return null;
  if (url.username !== '' || url.password !== '') return null;
  return url.href;
}
