import { READ_RESULT_NAME, type ToolDefinition } from '../tools/definitions';

export const GREP_CONTEXT_DEFAULT = 2;
export const GREP_CONTEXT_MAX = 10;
export const GREP_MAX_CHARS = 500;

/** `read_result`: offered once a result of the conversation was kept whole by reference (readResultRegistered). */
export const READ_RESULT_DEFINITION: ToolDefinition = {
  name: READ_RESULT_NAME,
  server: undefined,
  toolName: READ_RESULT_NAME,
  title: 'Read a kept result',
  description:
    'Read more of a tool result that was too long to show whole. Such a result opens with ' +
    '"[Result r… status: truncated" (or "reference-only", or "error"), and the whole of it is kept ' +
    'under that ref. With "grep": the lines that contain the text (case-insensitive), each with its ' +
    'line number and a few lines around it. With "offset" and "length": those lines (or characters, ' +
    'with "unit": "characters"). Every answer is bounded in size and says where to read on. A grep ' +
    'that finds nothing means the text is not in the result.',
  inputSchema: {
    type: 'object',
    properties: {
      ref: { type: 'string', pattern: '^r[1-9][0-9]*$', description: 'The result\'s reference, as its first line gives it, e.g. "r3".' },
      grep: { type: 'string', minLength: 1, maxLength: GREP_MAX_CHARS, description: 'Return only the lines that contain this text (case-insensitive, not a pattern), from "offset" on.' },
      offset: { type: 'integer', minimum: 1, description: 'The first line (or character, with unit "characters") to read or search; 1 is the first. Default 1.' },
      length: { type: 'integer', minimum: 1, description: 'How many lines (or characters) to read; default as many as fit.' },
      unit: { type: 'string', enum: ['lines', 'characters'], default: 'lines', description: 'What offset and length count.' },
      context: { type: 'integer', minimum: 0, maximum: GREP_CONTEXT_MAX, default: GREP_CONTEXT_DEFAULT, description: `Lines shown before and after each line grep finds (0–${GREP_CONTEXT_MAX}, default ${GREP_CONTEXT_DEFAULT}).` },
    },
    required: ['ref'],
    additionalProperties: false,
  },
  annotations: { title: 'Read a kept result', readOnlyHint: true, openWorldHint: false },
};
