import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { JsonSchema } from '../../../src/core/tools/definitions';
import { wireInputSchema } from '../../../src/core/wire/wireSchema';
import { MEMPALACE_DIARY_WRITE, NOTION_CREATE_ATTACHMENT } from '../fixtures/topLevelCombinators';

const TOP_COMBINATORS = ['oneOf', 'anyOf', 'allOf'];
const hasTopCombinator = (schema: Record<string, unknown>): boolean => TOP_COMBINATORS.some((c) => c in schema);

/** The bench catalogues beside the repository, as CI lays them out (absent in a bare clone). */
const benchDir = resolve(__dirname, '..', '..', '..', '..', '..', 'shared', 'bench', 'catalogs');
interface BenchTool { readonly name: string; readonly inputSchema: JsonSchema }
function benchTools(): { file: string; tool: BenchTool }[] {
  return readdirSync(benchDir).filter((f) => f.endsWith('.json')).sort().flatMap((file) => {
    const catalogue = JSON.parse(readFileSync(join(benchDir, file), 'utf8')) as { tools: BenchTool[] };
    return catalogue.tools.map((tool) => ({ file, tool }));
  });
}
const benchTool = (file: string, name: string): JsonSchema => {
  const found = benchTools().find((t) => t.file === `${file}.json` && t.tool.name === name);
  assert.ok(found, `${file}/${name} is in the bench`);
  return found.tool.inputSchema;
};

describe('wireInputSchema', () => {
  it('returns a schema that needs nothing as the very same object, so its bytes never change', () => {
    const schema = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] };
    assert.equal(wireInputSchema(schema).schema, schema);
    assert.equal(wireInputSchema(schema).issue, undefined);
  });

  it('adds type "object" where a schema has none', () => {
    assert.deepEqual(wireInputSchema({ properties: { a: { type: 'string' } } }), { schema: { properties: { a: { type: 'string' } }, type: 'object' } });
  });

  it('leaves out a tool whose schema is not an object schema, saying why', () => {
    const { issue } = wireInputSchema({ type: 'string' });
    assert.match(issue ?? '', /type "string", not an object schema/);
  });

  it("Notion's create-attachment (top-level anyOf of two object branches) becomes one object schema with the alternatives in words", () => {
    const { schema, issue } = wireInputSchema(NOTION_CREATE_ATTACHMENT);
    assert.equal(issue, undefined);
    assert.equal(hasTopCombinator(schema), false);
    assert.equal(schema.type, 'object');
    assert.deepEqual(schema.properties, { content: { type: 'string' }, source_url: { type: 'string' } });
    assert.equal(schema.required, undefined, 'neither is required in every branch');
    assert.equal(schema.description, 'Give at least one of these argument sets:\n1. requires content\n2. requires source_url');
  });

  it("MemPalace's diary_write (anyOf of required-only branches) keeps its properties, its own required and the either/or in words", () => {
    const { schema, issue } = wireInputSchema(MEMPALACE_DIARY_WRITE);
    assert.equal(issue, undefined);
    assert.equal(hasTopCombinator(schema), false);
    assert.deepEqual(schema.required, ['agent_name']);
    assert.deepEqual(Object.keys(schema.properties as object), ['agent_name', 'entry', 'content', 'topic']);
    assert.equal(schema.description, 'Give at least one of these argument sets:\n1. requires entry\n2. requires content');
  });

  it('oneOf with a discriminator: the constants become an enum, required is what every branch requires', () => {
    const { schema } = wireInputSchema({
      type: 'object',
      description: 'Move or copy a file.',
      oneOf: [
        { title: 'Move', properties: { mode: { const: 'move' }, from: { type: 'string' }, to: { type: 'string' } }, required: ['mode', 'from', 'to'] },
        { title: 'Copy', properties: { mode: { const: 'copy' }, from: { type: 'string' }, to: { type: 'string' }, overwrite: { type: 'boolean' } }, required: ['mode', 'from', 'to'] },
      ],
    });
    assert.deepEqual(schema.properties, { mode: { enum: ['move', 'copy'] }, from: { type: 'string' }, to: { type: 'string' }, overwrite: { type: 'boolean' } });
    assert.deepEqual(schema.required, ['mode', 'from', 'to']);
    assert.equal(schema.description, 'Move or copy a file.\n\nGive exactly one of these argument sets:\n1. Move: requires mode, from, to\n2. Copy: requires mode, from, to; also takes overwrite');
  });

  it('allOf adds up: every branch\'s properties and required, $refs into $defs resolved', () => {
    const { schema, issue } = wireInputSchema({
      $defs: { Paged: { type: 'object', properties: { page: { type: 'integer' } } } },
      allOf: [{ $ref: '#/$defs/Paged' }, { type: 'object', properties: { query: { type: 'string' } }, required: ['query'], additionalProperties: false }],
    });
    assert.equal(issue, undefined);
    assert.deepEqual(schema.properties, { page: { type: 'integer' }, query: { type: 'string' } });
    assert.deepEqual(schema.required, ['query']);
    assert.equal(schema.additionalProperties, undefined, "one branch's closed object would forbid the other's properties");
  });

  it('a branch that is not an object schema cannot be merged faithfully: the tool is left out with the reason', () => {
    const { schema, issue } = wireInputSchema({ type: 'object', oneOf: [{ type: 'object', properties: { id: { type: 'string' } } }, { type: 'string' }] });
    assert.deepEqual(schema, { type: 'object' });
    assert.match(issue ?? '', /top-level oneOf has a branch \(2\) of type "string"/);
    assert.match(wireInputSchema({ anyOf: [{ $ref: 'https://example.com/x.json' }] }).issue ?? '', /does not point into the schema's own \$defs/);
    assert.match(wireInputSchema({ anyOf: [{ not: { required: ['a'] } }] }).issue ?? '', /with "not"/);
  });

  it('is deterministic: the same schema gives the same bytes', () => {
    assert.equal(JSON.stringify(wireInputSchema(NOTION_CREATE_ATTACHMENT)), JSON.stringify(wireInputSchema(NOTION_CREATE_ATTACHMENT)));
  });

  describe('on the bench catalogues', function () {
    before(function () {
      if (!existsSync(benchDir)) this.skip();
    });

    it('no bench tool has a top-level combinator, and every one goes to the wire without an issue', () => {
      const tools = benchTools();
      assert.equal(tools.length, 2215);
      assert.deepEqual(tools.filter((t) => hasTopCombinator(t.tool.inputSchema)).map((t) => `${t.file}/${t.tool.name}`), []);
      assert.deepEqual(tools.filter((t) => wireInputSchema(t.tool.inputSchema).issue !== undefined).map((t) => t.tool.name), []);
    });

    it('combinators inside properties (accepted by the API) are left alone: redis delete, azure-devops repo_search_commits, postman createCollection', () => {
      for (const [file, name] of [['modelcontextprotocol__server-redis', 'delete'], ['azure-devops__mcp', 'repo_search_commits'], ['postman__postman-mcp-server', 'createCollection']] as const) {
        const schema = benchTool(file, name);
        assert.equal(wireInputSchema(schema).schema, schema, `${file}/${name}`);
      }
    });

    it("gitlab's nine tools whose schema is only a $schema line get type \"object\"", () => {
      const untyped = benchTools().filter((t) => t.tool.inputSchema.type === undefined);
      assert.equal(untyped.length, 9);
      assert.ok(untyped.every((t) => t.file === 'modelcontextprotocol__server-gitlab.json'));
      assert.deepEqual(wireInputSchema(benchTool('modelcontextprotocol__server-gitlab', 'create_issue')).schema, { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' });
    });
  });
});
