/**
 * Where sign-in keeps what must stay secret: in the editor, VS Code's SecretStorage (the OS
 * keychain), shared by every window of the user. Values are opaque strings.
 */
export interface SecretStore {
  get(key: string): Promise<string | undefined>;
  store(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
}

/** A store that lives as long as the process: for tests and for a client with no keychain. */
export class MemorySecretStore implements SecretStore {
  private readonly values = new Map<string, string>();

  get(key: string): Promise<string | undefined> {
    return Promise.resolve(this.values.get(key));
  }

  store(key: string, value: string): Promise<void> {
    this.values.set(key, value);
    return Promise.resolve();
  }

  delete(key: string): Promise<void> {
    this.values.delete(key);
    return Promise.resolve();
  }

  keys(): readonly string[] {
    return [...this.values.keys()];
  }
}
