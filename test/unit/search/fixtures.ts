import type { JsonSchema, ToolDefinition } from '../../../src/core/tools/definitions';

export function tool(name: string, description: string, inputSchema: JsonSchema = { type: 'object', properties: {} }, server = 'srv'): ToolDefinition {
  return { name: `${server}__${name}`, server, toolName: name, description, inputSchema };
}

export const CATALOGUE: readonly ToolDefinition[] = [
  tool('create_issue', 'Create a new issue in a GitHub repository.', {
    type: 'object',
    properties: { owner: { type: 'string' }, repo: { type: 'string' }, title: { type: 'string', description: 'Issue title' } },
    required: ['owner', 'repo', 'title'],
  }, 'github'),
  tool('list_issues', 'List issues in a GitHub repository with filtering options.', {}, 'github'),
  tool('create_pull_request', 'Open a pull request from one branch into another.', {}, 'github'),
  tool('rollout_status', 'Show the status of a rollout.', {
    type: 'object',
    properties: { deployment_id: { type: 'string' } },
  }, 'k8s'),
  tool('send_message', 'Post a message to a Slack channel.', {
    type: 'object',
    properties: {
      message: {
        type: 'object',
        properties: { blocks: { type: 'array', items: { type: 'object', properties: { thumbnailUrl: { type: 'string', description: 'Image shown beside the block' } } } } },
      },
    },
  }, 'slack'),
  tool('query', 'Run a read-only SQL query against Postgres.', { type: 'object', properties: { sql: { type: 'string' } } }, 'postgres'),
  tool('echo', 'Echoes back the input.', { type: 'object', properties: { message: { type: 'string' } } }, 'everything'),
  tool('echo_twice', 'Echoes the input two times.', {}, 'everything'),
];

export function names(tools: readonly ToolDefinition[]): Set<string> {
  return new Set(tools.map((t) => t.name));
}
