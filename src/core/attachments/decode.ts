/** A file's bytes as text, or why it is not attached as text. */
export type Decoded = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly reason: string };

/** How far into a file a NUL byte marks it as binary (what git and most editors check). */
const SNIFF_BYTES = 8000;

export function decodeText(bytes: Uint8Array): Decoded {
  if (bytes.subarray(0, SNIFF_BYTES).includes(0)) return { ok: false, reason: 'it is a binary file (it contains NUL bytes), and only text can be attached' };
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes) };
  } catch {
    return { ok: false, reason: 'it is not UTF-8 text, and only text can be attached' };
  }
}
