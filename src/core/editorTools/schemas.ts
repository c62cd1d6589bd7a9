import { z } from 'zod';

/**
 * The input of each of the editor's own tools, as zod schemas: the JSON Schema the model sees is
 * generated from them (definitions.ts), and a call's input is checked against the same schema,
 * so the two can never disagree. Shapes follow what Claude already uses well in coding agents:
 * a path relative to the workspace, 1-based line numbers, exact-string edits.
 */

const path = z.string().min(1).max(4096).describe('Path relative to the workspace folder (e.g. "src/app.ts"); in a multi-root workspace, start with the folder\'s name.');
const line = z.number().int().min(1).max(10_000_000);
const symbolAt = {
  path,
  line: line.describe('1-based line where the symbol is.'),
  symbol: z.string().min(1).max(500).describe('The symbol\'s name as written on that line (its first occurrence there is used).'),
};

export const EDITOR_INPUTS = {
  read_file: z.strictObject({
    path,
    offset: line.optional().describe('First line to read (1-based). Default 1.'),
    limit: z.number().int().min(1).max(100_000).optional().describe('How many lines to read. Default: the whole file (long files come back shortened with a reference to read on).'),
  }),
  list_directory: z.strictObject({
    path: path.optional().describe('Folder relative to the workspace; default the workspace folder itself.'),
  }),
  find_files: z.strictObject({
    pattern: z.string().min(1).max(1000).describe('Glob relative to the workspace, e.g. "**/*.test.ts" or "src/**/index.*". Files excluded by files.exclude, search.exclude and .gitignore are left out.'),
    max_results: z.number().int().min(1).max(5000).optional().describe('Most paths to return. Default 200.'),
  }),
  search_text: z.strictObject({
    query: z.string().min(1).max(1000).describe('Text or regular expression to find in file contents.'),
    is_regex: z.boolean().optional().describe('Treat query as a regular expression (Rust regex syntax). Default false: literal text.'),
    case_sensitive: z.boolean().optional().describe('Default false.'),
    include: z.string().max(1000).optional().describe('Only files matching this glob, e.g. "src/**/*.ts".'),
    exclude: z.string().max(1000).optional().describe('Leave out files matching this glob.'),
    max_results: z.number().int().min(1).max(5000).optional().describe('Most matching lines to return. Default 200.'),
  }),
  get_problems: z.strictObject({
    path: path.optional().describe('File whose problems to list; default every file with problems in the workspace.'),
  }),
  edit_file: z.strictObject({
    path,
    edits: z.array(z.strictObject({
      old_string: z.string().describe('Exact text to replace, whitespace and indentation included; must occur exactly once unless replace_all.'),
      new_string: z.string().describe('Text to put in its place.'),
      replace_all: z.boolean().optional().describe('Replace every occurrence. Default false.'),
    })).min(1).max(100).describe('Applied in order, each to the result of the ones before; all apply or none.'),
  }),
  create_file: z.strictObject({
    path,
    content: z.string().max(5_000_000).describe('The whole content of the new file.'),
    overwrite: z.boolean().optional().describe('Replace the file if it exists. Default false: an existing file is an error.'),
  }),
  rename_file: z.strictObject({
    path: path.describe('The file to move, relative to the workspace.'),
    new_path: path.describe('Where it goes, relative to the workspace.'),
  }),
  delete_file: z.strictObject({ path }),
  workspace_symbols: z.strictObject({
    query: z.string().min(1).max(500).describe('Part of a symbol name (class, function, variable…), as the language extensions match it.'),
  }),
  go_to_definition: z.strictObject(symbolAt),
  find_references: z.strictObject(symbolAt),
  document_symbols: z.strictObject({ path }),
  rename_symbol: z.strictObject({ ...symbolAt, new_name: z.string().min(1).max(500).describe('The new name; every reference in the workspace is renamed by the language service.') }),
  run_command: z.strictObject({
    command: z.string().min(1).max(10_000).describe('Shell command line to run in the workspace folder, in a terminal of the editor.'),
    cwd: path.optional().describe('Folder to run it in, relative to the workspace; default the workspace folder.'),
    timeout_seconds: z.number().int().min(1).max(3600).optional().describe('Stop it after this many seconds. Default 120.'),
  }),
} as const;

export type EditorToolName = keyof typeof EDITOR_INPUTS;
export type EditorInput<N extends EditorToolName> = z.infer<(typeof EDITOR_INPUTS)[N]>;

export const EDITOR_TOOL_NAMES = Object.keys(EDITOR_INPUTS) as EditorToolName[];

export function isEditorToolName(name: string): name is EditorToolName {
  return Object.hasOwn(EDITOR_INPUTS, name);
}

/**
 * The call's input checked against its tool's schema, or a message for the model naming each
 * argument that is wrong and what it must be.
 */
export function parseEditorInput<N extends EditorToolName>(name: N, input: unknown): { readonly ok: true; readonly value: EditorInput<N> } | { readonly ok: false; readonly message: string } {
  const parsed = EDITOR_INPUTS[name].safeParse(input);
  if (parsed.success) return { ok: true, value: parsed.data as EditorInput<N> };
  const problems = parsed.error.issues.map((i) => `${i.path.length > 0 ? `"${i.path.join('.')}"` : 'the input'}: ${i.message}`);
  return { ok: false, message: `The input of ${name} is not valid: ${problems.join('; ')}. See its input schema.` };
}
