import { isDeepStrictEqual } from 'node:util';
import { parse as parseJsonc } from 'jsonc-parser';
import * as vscode from 'vscode';
import {
  applySettingsEdit, appliedToolsValue, enableEdits, ignoredRunPolicyOf, parseToolsConfig, runEdits, runRemoval, scopeForToolKey, serverDefaultsKey, serverEnableEdits,
  serverToggleChanges, TRUSTED_USER_SCOPE, writtenToolsConfig,
  type AppliedToolsValue, type Availability, type AvailabilityChange, type IgnoredRunPolicy, type RunPolicy, type RunTrust, type ScopedValues, type SettingsEdit, type SettingsScope, type ToolIdentity, type ToolsConfig,
} from '../core/availability';
import { jsoncValueRange, removeJsoncProperty, setJsoncValue, type JsonPath } from '../core/settings';
import { readSetting, SETTINGS, type SettingName, type SettingRead, type SettingValue } from '../core/settings';

/**
 * Reads one registered setting, validated; `issue` is set when the fallback is in force. The
 * SettingsIssueReporter reports an issue once per change; a reader here only uses the value.
 */
export function readQuiverSetting<N extends SettingName>(name: N, scope?: vscode.ConfigurationScope): SettingRead<SettingValue<N>> {
  return readSetting(name, writtenSetting(SETTINGS[name].key, scope));
}

/** A setting as written, unvalidated. */
export function writtenSetting(key: string, scope?: vscode.ConfigurationScope): unknown {
  // `null` asks for the value across the workspace: without a scope VS Code warns on every read of a resource-scoped setting.
  return vscode.workspace.getConfiguration(undefined, scope ?? null).get<unknown>(key);
}

/** `quiver.tools` per scope and as Quiver applies it: a workspace cannot let a tool run without asking. */
export class AppliedToolsSetting {
  private writtenMemo: ToolsConfig | undefined;
  private parsedMemo: ReturnType<typeof parseToolsConfig> | undefined;

  private constructor(private readonly values: ScopedValues, readonly applied: AppliedToolsValue) {}

  /** From `values` when given (a write in progress: see ToolSettings.applied), else from VS Code's configuration. */
  static read(trust: RunTrust, values: ScopedValues = scopedValues()): AppliedToolsSetting {
    return new AppliedToolsSetting(values, appliedToolsValue(values, trust));
  }

  /** The applied value, validated as every setting is. */
  get value(): unknown {
    return readSetting('tools', this.applied.value).value;
  }

  /** The applied value parsed, with its problems. */
  get parsed(): ReturnType<typeof parseToolsConfig> {
    this.parsedMemo ??= parseToolsConfig(this.value);
    return this.parsedMemo;
  }

  /** The workspace's run policy that asks for `tool` to run unattended, which Quiver does not apply. */
  ignoredRunPolicyOf(tool: ToolIdentity): IgnoredRunPolicy | undefined {
    if (this.applied.ignored.length === 0) return undefined;
    this.writtenMemo ??= writtenToolsConfig(this.values);
    return ignoredRunPolicyOf(this.writtenMemo, this.parsed.value, this.applied.ignored, tool);
  }
}

/** `quiver.tools` as applied, parsed, for what availability decides (run policies do not matter there). */
export function readToolsConfig(): ToolsConfig {
  return AppliedToolsSetting.read(TRUSTED_USER_SCOPE).parsed.value;
}

const TARGETS: Record<SettingsScope, vscode.ConfigurationTarget> = {
  workspaceFolder: vscode.ConfigurationTarget.WorkspaceFolder,
  workspace: vscode.ConfigurationTarget.Workspace,
  user: vscode.ConfigurationTarget.Global,
};

/** How long VS Code may take to notice a settings file Quiver wrote before VS Code's own writer is used. */
const RELOAD_TIMEOUT_MS = 5_000;

/** A settings file as it is now, and the keys down to `quiver.tools` in it. */
interface SettingsFile {
  readonly uri: vscode.Uri;
  /** Undefined while the file does not exist. */
  readonly text: string | undefined;
  /** A `.code-workspace` file holds its settings under "settings". */
  readonly toolsPath: JsonPath;
}

type EditPlan = (values: ScopedValues, scope: SettingsScope) => SettingsEdit[];

/**
 * Writes `quiver.tools` entries by editing the settings file of the scope where the entry lives,
 * in place: only the entry that changes is touched, the rest of the file (comments, layout) stays
 * byte for byte. Where that file cannot be found for sure, or VS Code does not take the write up,
 * VS Code's own writer is used instead (it rewrites the whole `quiver.tools` value).
 */
export class ToolSettings implements vscode.Disposable {
  /** `quiver.tools` per scope as the write in progress leaves it, until VS Code has read the file back. */
  private writing: { readonly values: ScopedValues } | undefined;
  private readonly writingChanged = new vscode.EventEmitter<void>();
  /** A write began or settled: what `applied` gives changed, maybe before VS Code's configuration did. */
  readonly onDidChangeWriting = this.writingChanged.event;

  /** User settings.json sits two folders above the extension's global storage (per profile). */
  constructor(private readonly globalStorage: vscode.Uri) {}

  /**
   * `quiver.tools` as applied, a write in progress included: VS Code notices an edited settings
   * file through its file watcher, seconds later on a busy machine, and the Tools view should
   * move when the user clicks. Once the write settles, VS Code's configuration again.
   */
  applied(trust: RunTrust): AppliedToolsSetting {
    return AppliedToolsSetting.read(trust, this.writing?.values);
  }

  writeToolAvailability(tool: ToolIdentity, availability: Availability): Promise<SettingsScope> {
    return this.write(tool.name, (values, scope) => enableEdits(values, scope, tool, availability));
  }

  /** Run policies are the user's own: they go to User settings, whatever scope holds the tool's entry. */
  writeToolRunPolicy(key: string, run: RunPolicy): Promise<SettingsScope> {
    return this.write(key, () => runEdits(key, run), 'user');
  }

  /** Removes the run policy of each of `keys` from User settings. */
  async removeUserRunPolicies(keys: readonly string[]): Promise<void> {
    for (const key of keys) await this.write(key, (values) => runRemoval(values.user, key), 'user');
  }

  /** The keys User settings let run without asking. */
  userUnattendedKeys(): string[] {
    const user = scopedValues().user;
    return [...parseToolsConfig(user).value].filter(([, entry]) => entry.run === 'unattended').map(([key]) => key);
  }

  /** What writeServerAvailability would change for `tools` (the server's tools), and the scope it would write; nothing is written. */
  serverAvailabilityChanges(server: string, toolKeys: readonly string[], tools: readonly ToolIdentity[], availability: Availability): { readonly scope: SettingsScope; readonly changes: readonly AvailabilityChange[] } {
    const values = scopedValues();
    const scope = scopeForToolKey(values, serverDefaultsKey(server), workspaceOpen());
    return { scope, changes: serverToggleChanges(values, scope, server, toolKeys, tools, availability) };
  }

  writeServerAvailability(server: string, toolKeys: readonly string[], availability: Availability): Promise<SettingsScope> {
    return this.write(serverDefaultsKey(server), (values, scope) => serverEnableEdits(values, scope, server, toolKeys, availability));
  }

  /** Opens the settings file that holds `key`'s entry, with its `enable` (else the entry) selected. */
  async revealToolEntry(key: string): Promise<void> {
    const values = scopedValues();
    const scope = scopeForToolKey(values, key, workspaceOpen());
    const file = scope === 'user' ? undefined : await this.fileOf(scope, values[scope]);
    const editor = file ? await vscode.window.showTextDocument(file.uri) : await openUserSettings();
    if (!editor) return;
    const toolsPath = file?.toolsPath ?? [SETTINGS.tools.key];
    const text = editor.document.getText();
    const range = jsoncValueRange(text, [...toolsPath, key, 'enable']) ?? jsoncValueRange(text, [...toolsPath, key]);
    if (!range) return;
    const selection = new vscode.Selection(editor.document.positionAt(range.offset), editor.document.positionAt(range.offset + range.length));
    editor.selection = selection;
    editor.revealRange(selection, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }

  private async write(key: string, plan: EditPlan, only?: SettingsScope): Promise<SettingsScope> {
    const values = scopedValues();
    const scope = only ?? scopeForToolKey(values, key, workspaceOpen());
    const edits = plan(values, scope);
    if (edits.length === 0) return scope;
    const written = { values: { ...values, [scope]: edits.reduce<unknown>(applySettingsEdit, values[scope]) } };
    this.showWriting(written);
    try {
      const file = await this.fileOf(scope, values[scope]);
      if (!file || !(await editFile(file, edits))) await configuration().update(SETTINGS.tools.key, written.values[scope], TARGETS[scope]);
    } finally {
      // A later write that began meanwhile stays shown until it settles itself.
      if (this.writing === written) this.showWriting(undefined);
    }
    return scope;
  }

  private showWriting(writing: { readonly values: ScopedValues } | undefined): void {
    this.writing = writing;
    this.writingChanged.fire();
  }

  dispose(): void {
    this.writingChanged.dispose();
  }

  /**
   * The file VS Code reads `scope` from, when its `quiver.tools` is what VS Code reports for the
   * scope (`expected`). User settings must exist already: in a remote window they may live on
   * the other side, and a file created here would never be read.
   */
  private async fileOf(scope: SettingsScope, expected: unknown): Promise<SettingsFile | undefined> {
    const location = this.locationOf(scope);
    if (!location) return undefined;
    const text = await readText(location.uri);
    if (text === undefined && scope === 'user') return undefined;
    return isDeepStrictEqual(valueAt(text ?? '', location.toolsPath), expected) ? { ...location, text } : undefined;
  }

  private locationOf(scope: SettingsScope): Omit<SettingsFile, 'text'> | undefined {
    const folder = vscode.workspace.workspaceFolders?.[0];
    const workspaceFile = vscode.workspace.workspaceFile;
    const folderSettings = folder && { uri: vscode.Uri.joinPath(folder.uri, '.vscode', 'settings.json'), toolsPath: [SETTINGS.tools.key] };
    switch (scope) {
      case 'user': return { uri: asWorkbenchNamesIt(vscode.Uri.joinPath(this.globalStorage, '..', '..', 'settings.json')), toolsPath: [SETTINGS.tools.key] };
      case 'workspaceFolder': return folderSettings;
      case 'workspace':
        if (!workspaceFile) return folderSettings;
        return workspaceFile.scheme === 'untitled' ? undefined : { uri: workspaceFile, toolsPath: ['settings', SETTINGS.tools.key] };
    }
  }
}

/**
 * VS Code reloads User settings on a write only when it comes under the name the workbench gives
 * the file. A browser workbench served by the extension host's machine (code-server) names it
 * `vscode-remote:` with no authority, and does not watch it for other writes.
 */
function asWorkbenchNamesIt(userSettings: vscode.Uri): vscode.Uri {
  const servedBrowser = vscode.env.uiKind === vscode.UIKind.Web && vscode.env.remoteName !== undefined;
  return servedBrowser && userSettings.scheme === 'file' ? vscode.Uri.from({ scheme: 'vscode-remote', authority: '', path: userSettings.path }) : userSettings;
}

/** `quiver.tools` as VS Code has it for each scope. Only a multi-root workspace has a folder layer of its own. */
function scopedValues(): ScopedValues {
  const inspected = configuration().inspect<unknown>(SETTINGS.tools.key);
  const multiRoot = vscode.workspace.workspaceFile !== undefined;
  return {
    user: inspected?.globalValue,
    workspace: inspected?.workspaceValue,
    ...(multiRoot ? { workspaceFolder: inspected?.workspaceFolderValue } : {}),
  };
}

function configuration(): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration(undefined, vscode.workspace.workspaceFolders?.[0]?.uri);
}

function workspaceOpen(): boolean {
  return vscode.workspace.workspaceFolders !== undefined;
}

async function openUserSettings(): Promise<vscode.TextEditor | undefined> {
  await vscode.commands.executeCommand('workbench.action.openSettingsJson');
  return vscode.window.activeTextEditor;
}

/**
 * Applies `edits` to the file and waits until VS Code has read it back. False when VS Code did
 * not take the write up (it reads that scope from elsewhere): the file is then put back as it was.
 */
async function editFile(file: SettingsFile, edits: readonly SettingsEdit[]): Promise<boolean> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.path === file.uri.path);
  if (open?.isDirty) throw new Error(`${file.uri.path} has unsaved changes: save or revert them, then try again.`);
  const before = file.text ?? '';
  let next: string;
  try {
    next = edits.reduce((text, edit) => editText(text, [...file.toolsPath, ...edit.path], edit.value, file.toolsPath.length + 1), before);
  } catch (err) {
    throw new Error(`Quiver cannot edit ${file.uri.path}: ${err instanceof Error ? err.message : String(err)}. Fix the file, then try again.`, { cause: err });
  }
  if (next === before) return true;
  const reloaded = toolsSettingChanged(RELOAD_TIMEOUT_MS);
  await vscode.workspace.fs.writeFile(file.uri, new TextEncoder().encode(next));
  if (await reloaded) return true;
  if (file.text === undefined) await vscode.workspace.fs.delete(file.uri);
  else await vscode.workspace.fs.writeFile(file.uri, new TextEncoder().encode(file.text));
  return false;
}

/** Entries go on one line each: values below the entry level are written inline. */
function editText(text: string, path: JsonPath, value: unknown, entryDepth: number): string {
  return value === undefined ? removeJsoncProperty(text, path) : setJsoncValue(text, path, value, { inlineFrom: entryDepth });
}

/** Resolves true on the next change of `quiver.tools`, false when none comes within `timeoutMs`. */
function toolsSettingChanged(timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const listener = vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration(SETTINGS.tools.key)) return;
      clearTimeout(timer);
      listener.dispose();
      resolve(true);
    });
    const timer = setTimeout(() => {
      listener.dispose();
      resolve(false);
    }, timeoutMs);
  });
}

async function readText(uri: vscode.Uri): Promise<string | undefined> {
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined;
  }
}

function valueAt(text: string, path: JsonPath): unknown {
  let value: unknown = parseJsonc(text, [], { allowTrailingComma: true });
  for (const key of path) value = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined;
  return value;
}
