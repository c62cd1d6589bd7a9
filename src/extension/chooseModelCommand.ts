import * as vscode from 'vscode';
import { SETTINGS } from '../core/settings';
import { formatTokens } from '../core/overhead';
import { catalogFor, type ModelSummary } from '../providers/anthropic/modelCatalog';
import type { ApiKeyStore } from './apiKey';
import { readQuiverSetting } from './settings';

interface ModelItem extends vscode.QuickPickItem {
  readonly model: string;
}

/** "Quiver: Choose Model…": the models the key can use, from `/v1/models`, written to User settings. */
export function registerChooseModelCommand(keys: ApiKeyStore): vscode.Disposable {
  return vscode.commands.registerCommand('quiver.chooseModel', () => chooseModel(keys));
}

async function chooseModel(keys: ApiKeyStore): Promise<void> {
  const baseUrl = readQuiverSetting('anthropicBaseUrl');
  // The models list is not read from the default address when the user's own is unusable: the key goes only where the user says.
  if (baseUrl.issue !== undefined) {
    void vscode.window.showErrorMessage(`Quiver: ${baseUrl.issue}`);
    return;
  }
  const baseURL = baseUrl.value;
  const catalog = catalogFor({ apiKey: await keys.get(), ...(baseURL ? { baseURL } : {}) });
  const listing = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: 'Quiver: reading the models list…', cancellable: true },
    (_progress, token) => catalog.models(abortSignalOf(token), { refresh: true }),
  );
  const current = readQuiverSetting('model').value;
  const items = listing.models.map((m) => itemOf(m, current));
  if (!items.some((i) => i.model === current)) items.unshift({ model: current, label: `$(check) ${current}`, description: 'current setting · not in this list' });
  const picked = await pickModel(items, listing.problem === undefined ? 'Models your API key can use, or type a model id' : `Quiver's built-in list (${listing.problem}); type any other model id`);
  if (picked === undefined || picked === current) return;
  await vscode.workspace.getConfiguration().update(SETTINGS.model.key, picked, vscode.ConfigurationTarget.Global);
  warnIfOverridden(picked);
}

function itemOf(model: ModelSummary, current: string): ModelItem {
  return {
    model: model.id,
    label: model.id === current ? `$(check) ${model.id}` : model.id,
    description: model.displayName,
    detail: `${formatTokens(model.contextWindow)} context · ${formatTokens(model.maxTokens)} max output`,
  };
}

/** A QuickPick that also takes a typed id, for a model the list does not name (a proxy's alias, a new snapshot). */
function pickModel(items: readonly ModelItem[], placeholder: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const pick = vscode.window.createQuickPick<ModelItem>();
    pick.title = 'Quiver: Choose Model';
    pick.placeholder = placeholder;
    pick.matchOnDescription = true;
    pick.items = items;
    const typed = (value: string): ModelItem => ({ model: value, label: value, description: 'use this model id' });
    pick.onDidChangeValue((value) => {
      const id = value.trim();
      const known = items.some((i) => i.model === id);
      pick.items = id === '' || known || !/^[\w.:@/-]+$/.test(id) ? items : [...items, typed(id)];
    });
    let chosen: string | undefined;
    pick.onDidAccept(() => {
      chosen = pick.selectedItems[0]?.model;
      pick.hide();
    });
    pick.onDidHide(() => {
      pick.dispose();
      resolve(chosen);
    });
    pick.show();
  });
}

/** User settings lose to the workspace's: say so rather than let the choice look ignored. */
function warnIfOverridden(picked: string): void {
  const inspected = vscode.workspace.getConfiguration().inspect<string>(SETTINGS.model.key);
  const override = inspected?.workspaceFolderValue ?? inspected?.workspaceValue;
  if (override !== undefined && override !== picked) {
    void vscode.window.showWarningMessage(`Quiver: ${picked} is now your User setting, but this workspace sets ${SETTINGS.model.key} to "${override}", which wins here.`);
  }
}

function abortSignalOf(token: vscode.CancellationToken): AbortSignal {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  else token.onCancellationRequested(() => controller.abort());
  return controller.signal;
}
