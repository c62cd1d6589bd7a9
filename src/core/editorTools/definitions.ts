import { z } from 'zod';
import type { ToolEntry } from '../availability';
import type { JsonSchema, ToolAnnotations, ToolDefinition } from '../tools/definitions';
import { EDITOR_INPUTS, EDITOR_TOOL_NAMES, type EditorToolName } from './schemas';

/** The tool source name of the editor's own tools: their qualified names are `editor__<tool>`. */
export const EDITOR_SOURCE = 'editor';

/**
 * What a tool does to the workspace, which decides its defaults and whether it exists in an
 * untrusted workspace (only `read` tools do).
 */
export type EditorToolKind = 'read' | 'write' | 'language' | 'rename' | 'terminal' | 'delete';

interface EditorToolSpec {
  readonly kind: EditorToolKind;
  readonly title: string;
  readonly description: string;
}

const SPECS: Readonly<Record<EditorToolName, EditorToolSpec>> = {
  read_file: { kind: 'read', title: 'Read file', description: 'Read a text file of the workspace, as the editor has it (unsaved changes included), with line numbers ("   12\\tcode"). Use offset and limit for part of a long file. Binary files are refused.' },
  list_directory: { kind: 'read', title: 'List directory', description: 'List the files and folders in a workspace folder (folders end with "/").' },
  find_files: { kind: 'read', title: 'Find files', description: 'Find workspace files whose path matches a glob. Honours files.exclude, search.exclude and .gitignore.' },
  search_text: { kind: 'read', title: 'Search text', description: 'Search the contents of workspace files for a text or regular expression (ripgrep); returns "path:line: text" for each matching line. Honours files.exclude, search.exclude and .gitignore.' },
  get_problems: { kind: 'read', title: 'Get problems', description: 'The errors and warnings the editor\'s language services report (diagnostics), for one file or the whole workspace.' },
  edit_file: { kind: 'write', title: 'Edit file', description: 'Replace exact strings in a file; several edits in one call, applied in order, all or none. Each old_string must match the file exactly once (or set replace_all). Read the file first. The user reviews the change as a diff; the result says what was applied or why not.' },
  create_file: { kind: 'write', title: 'Create file', description: 'Create a file with the given content (set overwrite to replace an existing one). The user reviews it before it is written.' },
  rename_file: { kind: 'rename', title: 'Rename file', description: 'Move or rename a file within the workspace.' },
  delete_file: { kind: 'delete', title: 'Delete file', description: 'Delete a file of the workspace (it can be restored with the turn\'s Undo).' },
  workspace_symbols: { kind: 'language', title: 'Workspace symbols', description: 'Find classes, functions, variables and other symbols by name across the workspace, through the editor\'s language services.' },
  go_to_definition: { kind: 'language', title: 'Go to definition', description: 'Where a symbol used at a given line is defined (path, line and the line\'s text).' },
  find_references: { kind: 'language', title: 'Find references', description: 'Every reference to a symbol across the workspace, from the language service (not a text search): path, line and the line\'s text.' },
  document_symbols: { kind: 'language', title: 'Document outline', description: 'The outline of a file: its classes, functions, methods and other symbols with their lines.' },
  rename_symbol: { kind: 'rename', title: 'Rename symbol', description: 'Rename a symbol and every reference to it across the workspace through the language service (like F2). The user reviews the change.' },
  run_command: { kind: 'terminal', title: 'Run command', description: 'Run a shell command in an editor terminal the user can watch, and return its output and exit code. Stopped after timeout_seconds. For builds, tests, git and other command-line tools.' },
};

/** RFD 108's recommended shape: what a user needs on every request is on, the rest is found or kept off. */
const DEFAULTS: Readonly<Record<EditorToolKind, ToolEntry>> = {
  read: { availability: 'on', run: 'unattended' },
  write: { availability: 'on', run: 'ask' },
  language: { availability: 'discoverable', run: 'unattended' },
  rename: { availability: 'discoverable', run: 'ask' },
  terminal: { availability: 'discoverable', run: 'ask' },
  delete: { availability: 'off', run: 'ask' },
};

export function editorToolKind(toolName: EditorToolName): EditorToolKind {
  return SPECS[toolName].kind;
}

function inputSchemaOf(toolName: EditorToolName): JsonSchema {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(EDITOR_INPUTS[toolName], { io: 'input' });
  return schema;
}

function annotationsOf(spec: EditorToolSpec): ToolAnnotations {
  const readOnly = spec.kind === 'read' || spec.kind === 'language';
  return { title: spec.title, readOnlyHint: readOnly, destructiveHint: spec.kind === 'delete' || spec.kind === 'terminal', openWorldHint: spec.kind === 'terminal' };
}

/** Every editor tool as the model sees it, with its defaults; in an untrusted workspace only the read tools. */
export function editorToolDefinitions(trusted: boolean): ToolDefinition[] {
  return EDITOR_TOOL_NAMES
    .filter((toolName) => trusted || SPECS[toolName].kind === 'read')
    .map((toolName) => {
      const spec = SPECS[toolName];
      return {
        name: `${EDITOR_SOURCE}__${toolName}`,
        server: EDITOR_SOURCE,
        toolName,
        title: spec.title,
        description: spec.description,
        inputSchema: inputSchemaOf(toolName),
        annotations: annotationsOf(spec),
        defaults: DEFAULTS[spec.kind],
      };
    });
}
