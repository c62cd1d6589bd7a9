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
    'Find and load tools that are installed but not loaded, by what they do (a few words, e.g. "create github issue"). ' +
    'Results marked "usable" are callable in your next reply; to load one under "not_loaded", search its exact name with limit 1.',
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', minLength: 1, description: 'What the tool should do.' },
      limit: {
        type: 'integer',
        minimum: SEARCH_LIMIT_MIN,
        maximum: SEARCH_LIMIT_MAX,
        default: SEARCH_LIMIT_DEFAULT,
        description: `Matches to return (default ${SEARCH_LIMIT_DEFAULT}).`,
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
  description: 'The full description and parameters of tools, by exact name.',
  inputSchema: {
    type: 'object',
    properties: {
      names: {
        type: 'array',
        items: { type: 'string' },
        minItems: 1,
        maxItems: DESCRIBE_MAX_NAMES,
        description: `At most ${DESCRIBE_MAX_NAMES}.`,
      },
    },
    required: ['names'],
    additionalProperties: false,
  },
  annotations: { title: 'Describe tools', readOnlyHint: true, openWorldHint: false },
};

export const SEARCH_BUILTINS: readonly ToolDefinition[] = [SEARCH_TOOLS_DEFINITION, DESCRIBE_TOOLS_DEFINITION];
