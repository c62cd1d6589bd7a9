import * as vscode from 'vscode';
import type { RunTrust } from '../core/availability';
import { ChatSession, type ChatSessionPorts } from '../core/chatSession';
import { effortSetting } from '../core/settings';
import type { TurnSettings } from '../core/turn';
import type { ApiKeyStore } from './apiKey';
import type { ChatController, HostToWebview } from './chatController';
import { ConfiguredModelClient } from './configuredModelClient';
import { AppliedToolsSetting, readQuiverSetting } from './settings';

export type { Completions } from '../core/chatSession';

/** What the editor gives the chat: its stores and sources, and the editor's own actions. */
export type ChatDeps = Omit<ChatSessionPorts, 'modelClient' | 'settings' | 'modelName' | 'apiKeySet' | 'lastOpened' | 'log' | 'openExternal'> & {
  readonly keys: ApiKeyStore;
  readonly memento: vscode.Memento;
  readonly log: vscode.LogOutputChannel;
};

const ACTIVE_KEY = 'quiver.activeConversation';

export function readTurnSettings(trust: RunTrust): TurnSettings {
  return {
    tools: AppliedToolsSetting.read(trust).value,
    model: readQuiverSetting('model').value,
    maxTokens: readQuiverSetting('maxTokens').value,
    thinking: readQuiverSetting('thinking').value,
    effort: effortSetting(readQuiverSetting('effort').value),
    maxCyclesPerTurn: readQuiverSetting('maxCyclesPerTurn').value,
    searchLoadBudget: readQuiverSetting('searchMaxLoadTokens').value,
    results: { maxTokens: readQuiverSetting('resultsMaxTokens').value, thresholdTokens: readQuiverSetting('resultsThresholdTokens').value },
    contextManagement: readQuiverSetting('contextManagement').value, cacheTtl: readQuiverSetting('cacheTtl').value,
  };
}

/**
 * The chat session (src/core/chatSession) in the editor: its ports filled from VS Code (settings,
 * the workspace's memory, the log, the secret key, links), its news as VS Code events, and the
 * two actions that are editor commands.
 */
export class ChatSessionController extends ChatSession implements ChatController, vscode.Disposable {
  /** Fires when the active conversation or its stream changes (promotions, toggles, usage). */
  readonly onDidChangeStream: vscode.Event<void> = (listener, thisArg, disposables) => {
    const subscription = new vscode.Disposable(this.onStreamChange(() => void listener.call(thisArg)));
    disposables?.push(subscription);
    return subscription;
  };

  static async create(deps: ChatDeps): Promise<ChatSessionController> {
    const { keys, memento, log, ...rest } = deps;
    const controller = new ChatSessionController({
      ...rest,
      modelClient: () => new ConfiguredModelClient(keys),
      settings: readTurnSettings,
      modelName: () => readQuiverSetting('model').value,
      apiKeySet: async () => (await keys.get()) !== undefined,
      lastOpened: { get: () => memento.get<string>(ACTIVE_KEY), set: (id) => Promise.resolve(memento.update(ACTIVE_KEY, id)) },
      log,
      openExternal: (href) => Promise.resolve(vscode.env.openExternal(vscode.Uri.parse(href, true))),
    });
    await controller.start();
    return controller;
  }

  onDidPost(listener: (msg: HostToWebview) => void): vscode.Disposable {
    return new vscode.Disposable(this.onPost(listener));
  }

  async showTools(): Promise<void> {
    await vscode.commands.executeCommand('quiver.tools.focus');
  }

  async setApiKey(): Promise<void> {
    await vscode.commands.executeCommand('quiver.setApiKey');
  }

  dispose(): void {
    this.stop();
  }
}
