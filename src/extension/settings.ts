import * as vscode from 'vscode';
import { parseToolsConfig, scopeForToolKey, withServerEnable, withToolEnable, withToolRun, type Availability, type RunPolicy, type SettingsScope, type ToolsConfig } from '../core/availability';
import { readSetting, SETTINGS, type SettingName, type SettingRead, type SettingValue } from '../core/settingsRegistry';

/** Reads one registered setting, validated; `issue` is set when the fallback is in force. */
export function readQuiverSetting<N extends SettingName>(name: N, scope?: vscode.ConfigurationScope): SettingRead<SettingValue<N>> {
  return readSetting(name, vscode.workspace.getConfiguration(undefined, scope).get<unknown>(SETTINGS[name].key));
}

/** `quiver.tools` as written, parsed; its problems are reported by the Tools model. */
export function readToolsConfig(): ToolsConfig {
  return parseToolsConfig(readQuiverSetting('tools').value).value;
}

const TARGETS: Record<SettingsScope, vscode.ConfigurationTarget> = {
  workspaceFolder: vscode.ConfigurationTarget.WorkspaceFolder,
  workspace: vscode.ConfigurationTarget.Workspace,
  user: vscode.ConfigurationTarget.Global,
};

type ToolsUpdate = (tools: unknown) => Readonly<Record<string, unknown>>;

/** Applies `update` to `quiver.tools` in the one scope where `key` lives (see scopeForToolKey). */
async function updateToolsAt(key: string, update: ToolsUpdate): Promise<SettingsScope> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  const config = vscode.workspace.getConfiguration(undefined, folder?.uri);
  const inspected = config.inspect<unknown>(SETTINGS.tools.key);
  const values = { workspaceFolder: inspected?.workspaceFolderValue, workspace: inspected?.workspaceValue, user: inspected?.globalValue };
  const scope = scopeForToolKey(values, key, folder !== undefined);
  await config.update(SETTINGS.tools.key, update(values[scope]), TARGETS[scope]);
  return scope;
}

export function writeToolAvailability(key: string, availability: Availability): Promise<SettingsScope> {
  return updateToolsAt(key, (tools) => withToolEnable(tools, key, availability));
}

export function writeToolRunPolicy(key: string, run: RunPolicy): Promise<SettingsScope> {
  return updateToolsAt(key, (tools) => withToolRun(tools, key, run));
}

export function writeServerAvailability(server: string, toolKeys: readonly string[], availability: Availability): Promise<SettingsScope> {
  return updateToolsAt(`${server}__*`, (tools) => withServerEnable(tools, server, toolKeys, availability));
}
