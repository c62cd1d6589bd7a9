import type { ToolDefinition } from '../tools/definitions';
import { DESCRIBE_MAX_NAMES } from './describeTools';
import { SEARCH_LIMIT_DEFAULT, SEARCH_LIMIT_MAX, SEARCH_LIMIT_MIN } from './searchTools';

/** `search_tools`: offered once any stream position held a discoverable tool (RFD 108). */
export const SEARCH_TOOLS_DEFINITION: ToolDefinition = {
  name: 'search_tools',
  server: undefined,
  toolName: 'search_tools',
  title: 'Search tools',
  description:
    'Find tools that are available but not loaded yet, by what they do. Returns the best matches ' +
    '(name and one-line summary) and how many tools matched in total. Tools under "results" marked ' +
    '"usable" are callable from your next step. Lower-ranked matches may be listed under ' +
    '"not_loaded" without their definitions; to load one, search for its exact name with limit 1. ' +
    'Search with a few words about the task, for example "create github issue", "query postgres ' +
    'database" or "send slack message". Tools that are already loaded are never returned.',
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', minLength: 1, description: 'What the tool should do, in a few words. Must not be empty.' },
      limit: {
        type: 'integer',
        minimum: SEARCH_LIMIT_MIN,
        maximum: SEARCH_LIMIT_MAX,
        default: SEARCH_LIMIT_DEFAULT,
        description: `How many matches to return (${SEARCH_LIMIT_MIN}–${SEARCH_LIMIT_MAX}, default ${SEARCH_LIMIT_DEFAULT}).`,
      },
    },
    required: ['query'],
    additionalProperties: false,
  },
  annotations: { title: 'Search tools', readOnlyHint: true, openWorldHint: false },
};

/** `describe_tools`: full docs for permitted tools, found or offered. */
export const DESCRIBE_TOOLS_DEFINITION: ToolDefinition = {
  name: 'describe_tools',
  server: undefined,
  toolName: 'describe_tools',
  title: 'Describe tools',
  description:
    'Get the full description and parameter documentation of tools by name, for example after ' +
    'search_tools found them. An unknown name is an error that suggests close names.',
  inputSchema: {
    type: 'object',
    properties: {
      names: {
        type: 'array',
        items: { type: 'string' },
        minItems: 1,
        maxItems: DESCRIBE_MAX_NAMES,
        description: `Exact tool names (at most ${DESCRIBE_MAX_NAMES}).`,
      },
    },
    required: ['names'],
    additionalProperties: false,
  },
  annotations: { title: 'Describe tools', readOnlyHint: true, openWorldHint: false },
};

export const SEARCH_BUILTINS: readonly ToolDefinition[] = [SEARCH_TOOLS_DEFINITION, DESCRIBE_TOOLS_DEFINITION];
