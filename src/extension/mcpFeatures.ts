import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { Attachment } from '../core/attachments';
import { resourceBlock } from '../core/attachments';
import type { McpManager } from '../mcp/mcpManager';
import { promptContent, resourceTexts, type ResourceText } from '../mcp/promptContent';
import type { ServerPrompt } from '../mcp/serverFeatures';

/** What the chat uses of MCP beyond tools: servers' prompts (slash commands) and resources (attachments). */
export type McpFeatures = Pick<McpManager, 'prompts' | 'resources' | 'getPrompt' | 'readResource'>;

type Outcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly message: string };

/** Reads one resource as attachments (a resource may come in several parts). */
export async function resourceAttachments(features: McpFeatures, server: string, uri: string): Promise<Outcome<readonly Attachment[]>> {
  const known = features.resources().find((r) => r.server === server && r.uri === uri);
  try {
    const read = await features.readResource(server, uri, AbortSignal.timeout(60_000));
    return { ok: true, value: resourceTexts(read).map((part) => asAttachment(server, part, known?.name)) };
  } catch (error) {
    return { ok: false, message: `#resource:${server}:${uri} was not attached: ${error instanceof Error ? error.message : String(error)}` };
  }
}

function asAttachment(server: string, part: ResourceText, name: string | undefined): Attachment {
  return { kind: 'resource', id: randomUUID(), server, uri: part.uri, name: name ?? part.uri.split('/').pop() ?? part.uri, text: resourceBlock(server, part.uri, part.mimeType, part.text) };
}

/**
 * `/server.prompt`: the prompt's arguments (those typed as `name=value`, a lone argument from
 * the text after the command, the rest asked for one by one), then its messages as the user's
 * message and its embedded resources as attachments. Undefined when the user dismissed a question.
 */
export async function promptMessage(features: McpFeatures, command: { readonly name: string; readonly args: Readonly<Record<string, string>>; readonly text: string }): Promise<Outcome<{ readonly text: string; readonly attachments: readonly Attachment[] }> | undefined> {
  const prompt = features.prompts().find((p) => `${p.server}.${p.name}` === command.name);
  if (prompt === undefined) {
    const names = features.prompts().map((p) => `/${p.server}.${p.name}`);
    return { ok: false, message: `No MCP server offers the prompt /${command.name}.${names.length === 0 ? ' No running server has prompts.' : ` Prompts: ${names.slice(0, 20).join(', ')}.`}` };
  }
  const args = await askArguments(prompt, command);
  if (args === undefined) return undefined;
  try {
    const content = promptContent(await features.getPrompt(prompt.server, prompt.name, args, AbortSignal.timeout(60_000)));
    return { ok: true, value: { text: content.text, attachments: content.resources.map((part) => asAttachment(prompt.server, part, undefined)) } };
  } catch (error) {
    return { ok: false, message: `/${command.name} failed: ${error instanceof Error ? error.message : String(error)}` };
  }
}

async function askArguments(prompt: ServerPrompt, command: { readonly args: Readonly<Record<string, string>>; readonly text: string }): Promise<Record<string, string> | undefined> {
  const args: Record<string, string> = { ...command.args };
  const open = prompt.arguments.filter((a) => args[a.name] === undefined);
  if (command.text !== '' && open.length === 1 && open[0] !== undefined) args[open[0].name] = command.text;
  for (const argument of prompt.arguments) {
    if (args[argument.name] !== undefined) continue;
    const value = await vscode.window.showInputBox({
      title: `/${prompt.server}.${prompt.name}${prompt.description === undefined ? '' : `: ${prompt.description}`}`,
      prompt: `${argument.name}${argument.description === undefined ? '' : ` — ${argument.description}`}${argument.required ? '' : ' (optional: Enter leaves it out)'}`,
      ignoreFocusOut: true,
      validateInput: (v) => (argument.required && v.trim() === '' ? `${argument.name} is required` : undefined),
    });
    if (value === undefined) return undefined;
    if (value !== '') args[argument.name] = value;
  }
  return args;
}
