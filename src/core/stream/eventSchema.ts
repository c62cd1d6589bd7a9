import { z } from 'zod';
import { RESULT_REF } from '../results/resultRefs';
import type { StreamEvent } from './events';

const at = z.string().min(1);
const json = z.record(z.string(), z.unknown());

/** A piece of a tool result, as the stream and the result store keep it. */
export const toolResultContentSchema = z.union([
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('image'), data: z.string(), mimeType: z.string() }),
]);

const assistantBlock = z.union([
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('thinking'), thinking: z.string(), signature: z.string() }),
  z.object({ type: z.literal('redacted_thinking'), data: z.string() }),
  z.object({ type: z.literal('tool_use'), id: z.string().min(1), name: z.string().min(1), input: json }),
  z.object({
    type: z.literal('compaction'),
    summary: z.string().nullable(),
    toolChanges: z.object({ added: z.array(z.string()), removed: z.array(z.string()) }).optional(),
    wire: json,
  }),
]);

const count = z.number().int().min(0);

const wireTool = z.object({ name: z.string().min(1), description: z.string(), inputSchema: json });

const lineRange = z.object({ start: z.number().int().min(1), end: z.number().int().min(1) });
const editorAttachment = { id: z.string().min(1), uri: z.string(), path: z.string(), language: z.string(), range: lineRange, text: z.string() };
const attachment = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('selection'), ...editorAttachment }),
  z.object({ kind: z.literal('file'), ...editorAttachment }),
  z.object({ kind: z.literal('problems'), id: z.string().min(1), uri: z.string().nullable(), path: z.string().nullable(), text: z.string() }),
  z.object({ kind: z.literal('resource'), id: z.string().min(1), server: z.string(), uri: z.string(), name: z.string(), text: z.string() }),
]);

const fileChange = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('edit'), path: z.string().min(1), label: z.string(), before: z.string(), after: z.string() }),
  z.object({ kind: z.literal('create'), path: z.string().min(1), label: z.string(), after: z.string() }),
  z.object({ kind: z.literal('delete'), path: z.string().min(1), label: z.string(), before: z.string() }),
  z.object({ kind: z.literal('rename'), path: z.string().min(1), label: z.string(), fromPath: z.string().min(1), fromLabel: z.string(), text: z.string() }),
]);

/** What a stored line must look like to load; kept beside events.ts so the two change together. */
export const streamEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('turn_start'), at }),
  z.object({ type: z.literal('config_delta'), source: z.enum(['settings', 'user', 'promotion']), tools: json, preload: z.literal(true).optional(), at }),
  z.object({ type: z.literal('user_message'), text: z.string(), forced: z.string().optional(), attachments: z.array(attachment).optional(), at }),
  z.object({ type: z.literal('assistant_message'), content: z.array(assistantBlock), stopReason: z.string().nullable(), messageId: z.string().optional(), onDemand: z.literal(true).optional(), at }),
  z.object({ type: z.literal('compacted'), summary: z.string(), attachments: z.array(attachment).optional(), at }),
  z.object({ type: z.literal('wire_tools'), placement: z.enum(['upFront', 'deferred']), tools: z.array(wireTool), at }),
  z.object({ type: z.literal('wire_system'), text: z.string(), at }),
  z.object({
    type: z.literal('wire_change'),
    cause: z.enum(['settings', 'use', 'use_done', 'server', 'catalogue', 'compaction', 'cleared', 'preload']),
    added: z.array(z.string()),
    removed: z.array(z.string()),
    text: z.string(),
    systemPrompt: z.string().optional(),
    at,
  }),
  z.object({
    type: z.literal('tool_result'),
    toolUseId: z.string().min(1),
    name: z.string(),
    content: z.array(toolResultContentSchema),
    isError: z.boolean(),
    notRun: z.enum(['denied', 'cancelled', 'refused']).optional(),
    stopped: z.literal(true).optional(),
    found: z.array(z.object({ name: z.string(), status: z.enum(['usable', 'found, unavailable']) })).optional(),
    notLoaded: z.array(z.string()).optional(),
    alreadyLoaded: z.array(z.string()).optional(),
    signInRequired: z.array(z.string()).optional(),
    waitingForSignIn: z.array(z.string()).optional(),
    serversStarting: z.array(z.string()).optional(),
    kept: z.object({ ref: z.string().regex(RESULT_REF), status: z.enum(['truncated', 'reference-only', 'error']), shownChars: count, totalChars: count }).optional(),
    changes: z.array(fileChange).optional(),
    at,
  }),
  z.object({
    type: z.literal('usage'),
    model: z.string(),
    inputTokens: count,
    outputTokens: count,
    cacheReadTokens: count,
    cacheWriteTokens: count,
    cacheWrite1hTokens: count.optional(),
    cacheMiss: z.string().optional(),
    cleared: z.object({ toolUses: count, inputTokens: count }).optional(),
    compacted: z.object({ inputTokens: count, outputTokens: count }).optional(),
    at,
  }),
  z.object({ type: z.literal('turn_end'), reason: z.enum(['done', 'cancelled', 'max_cycles', 'cut_off', 'declined', 'error']), message: z.string().optional(), cause: z.string().optional(), at }),
  z.object({ type: z.literal('renamed'), title: z.string(), at }),
  z.object({ type: z.literal('message_dropped'), index: count, at }),
  z.object({ type: z.literal('restart'), at }),
  z.object({
    type: z.literal('changes_undone'),
    toolUseIds: z.array(z.string().min(1)),
    restored: z.array(z.string()),
    skipped: z.array(z.object({ label: z.string(), why: z.string() })),
    at,
  }),
]);

// Compile-time check that the schema and the StreamEvent union describe the same shapes.
type Parsed = z.infer<typeof streamEventSchema>;
const _schemaMatchesEvents: (e: Parsed) => StreamEvent = (e) => e;
const _eventsMatchSchema: (e: StreamEvent) => Parsed = (e) => e as Parsed;
void _schemaMatchesEvents;
void _eventsMatchSchema;
