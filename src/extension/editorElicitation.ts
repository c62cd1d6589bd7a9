import * as vscode from 'vscode';
import type { ElicitationAnswer, ElicitationRequest } from '../core/elicitation';
import { answerProblems, type FieldValue, type FormField } from '../core/elicitation';
import { webHref } from '../core/text';

/**
 * A server's question asked outside a chat's tool call (nothing in the chat waits on it): put
 * with the editor's own prompts, one field at a time. Escape on any of them cancels.
 */
export async function askInEditor(request: ElicitationRequest, signal: AbortSignal): Promise<ElicitationAnswer> {
  if (request.mode === 'url') {
    const href = webHref(request.url);
    if (href === null) return { action: 'decline' };
    const choice = await vscode.window.showInformationMessage(`MCP server "${request.server}" asks: ${request.message}`, { modal: true, detail: request.url }, 'Open Link', 'Decline');
    // The server may have withdrawn the question while the dialog was up.
    if (signal.aborted) return { action: 'cancel' };
    if (choice === 'Open Link') await vscode.env.openExternal(vscode.Uri.parse(href, true));
    return choice === 'Open Link' ? { action: 'accept', content: {} } : choice === 'Decline' ? { action: 'decline' } : { action: 'cancel' };
  }
  const cancel = new vscode.CancellationTokenSource();
  signal.addEventListener('abort', () => cancel.cancel(), { once: true });
  try {
    const content: Record<string, FieldValue> = {};
    for (const field of request.fields) {
      const value = await askField(request, field, cancel.token);
      if (value === null) return { action: 'cancel' };
      if (value !== undefined) content[field.key] = value;
    }
    return { action: 'accept', content };
  } finally {
    cancel.dispose();
  }
}

/** null: dismissed; undefined: left empty. */
async function askField(request: ElicitationRequest & { mode: 'form' }, field: FormField, token: vscode.CancellationToken): Promise<FieldValue | undefined | null> {
  const title = `${request.server}: ${request.message}`;
  const prompt = field.description ?? field.label;
  if (field.kind === 'boolean' || field.kind === 'choice') {
    const options = field.kind === 'boolean' ? [{ value: true, label: 'Yes' }, { value: false, label: 'No' }] : field.options.map((o) => ({ value: o.value, label: o.label }));
    const picked = await vscode.window.showQuickPick(options.map((o) => ({ label: o.label, value: o.value, picked: o.value === field.default })), { title, placeHolder: `${field.label}${field.required ? '' : ' (optional)'}`, ignoreFocusOut: true }, token);
    return picked === undefined ? null : picked.value;
  }
  if (field.kind === 'choices') {
    const picked = await vscode.window.showQuickPick(field.options.map((o) => ({ label: o.label, value: o.value, picked: field.default?.includes(o.value) ?? false })), { title, placeHolder: field.label, canPickMany: true, ignoreFocusOut: true }, token);
    return picked === undefined ? null : picked.map((p) => p.value);
  }
  const parse = (text: string): FieldValue | undefined => (text === '' ? undefined : field.kind === 'number' ? Number(text) : text);
  const text = await vscode.window.showInputBox({
    title,
    prompt,
    value: field.default === undefined ? '' : String(field.default),
    ignoreFocusOut: true,
    validateInput: (t) => answerProblems([field], { ...(parse(t) === undefined ? {} : { [field.key]: parse(t) as FieldValue }) })[0]?.message,
  }, token);
  return text === undefined ? null : parse(text);
}
