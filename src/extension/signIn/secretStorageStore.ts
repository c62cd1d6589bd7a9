import type * as vscode from 'vscode';
import type { SecretStore } from '../../mcp';

/** VS Code's SecretStorage (the OS keychain, shared by the user's windows) as sign-in's store. */
export function secretStorageStore(secrets: vscode.SecretStorage): SecretStore {
  return {
    get: async (key) => secrets.get(key),
    store: async (key, value) => secrets.store(key, value),
    delete: async (key) => secrets.delete(key),
  };
}
