import { homedir } from 'node:os';
import { join } from 'node:path';
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';
import * as vscode from 'vscode';
import type { ExpansionContext } from '../mcp/expandVariables';
import { McpManager } from '../mcp/mcpManager';
import { mergeServerConfigs, parseMcpJson, parseQuiverServers } from '../mcp/parseServerConfigs';
import { restingServers, type RestingServers } from '../mcp/restingServers';
import type { ConfigSource, ParsedServerConfigs, RemoteServerConfig, ServerConfig } from '../mcp/serverConfig';
import { SETTINGS } from '../core/settings';
import { SharedRefreshLock } from '../mcp/oauth/refreshLock';
import { serverUrlOfKey } from '../mcp/oauth/serverCredentials';
import { askInEditor } from './editorElicitation';
import { editorSignInBrowser } from './signIn/editorSignInBrowser';
import { secretStorageStore } from './signIn/secretStorageStore';
import { readQuiverSetting, readToolsConfig } from './settings';

/** The browser step of a sign-in: long enough to create an account or find a password. */
const SIGN_IN_TIMEOUT_MS = 5 * 60_000;

export interface McpHost {
  readonly manager: McpManager;
  /** The configured servers reached over HTTP, as last read from settings and mcp.json. */
  remoteServers(): readonly RemoteServerConfig[];
  /** Stops watching and stops every server, waiting until their processes are gone. */
  dispose(): Promise<void>;
}

/**
 * Feeds the MCP manager from `quiver.mcpServers` (every scope, each entry tagged with where it
 * was written) and each folder's `.vscode/mcp.json` (read only), and keeps it in step with
 * configuration, folder and workspace-trust changes. A server every one of whose tools
 * `quiver.tools` turns off is left stopped; one with no tool on sleeps on its cached catalogue
 * (kept in the extension's global storage) unless `quiver.mcp.eagerServers` names it.
 * `quiver.mcp.startupTimeoutMs` and `quiver.mcp.maxResultChars` are read once, when the host is created.
 */
export function createMcpHost(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): McpHost {
  const declared = (context.extension.packageJSON as { version?: unknown }).version;
  const version = typeof declared === 'string' ? declared : 'unknown';
  const manager = new McpManager({
    logger: log,
    workspaceTrusted: vscode.workspace.isTrusted,
    // A fallback is reported once per change by the SettingsIssueReporter, not on every read here.
    startupTimeoutMs: readQuiverSetting('mcpStartupTimeoutMs').value,
    maxResultChars: readQuiverSetting('mcpMaxResultChars').value,
    catalogueCacheDir: join(context.globalStorageUri.fsPath, 'mcp-catalogues'),
    clientInfo: { name: 'quiver', version },
    elicitation: askInEditor,
    signIn: {
      browser: editorSignInBrowser,
      store: secretStorageStore(context.secrets),
      // Global storage is one folder for all of the user's windows: the lock spans them.
      lock: new SharedRefreshLock(join(context.globalStorageUri.fsPath, 'oauth-locks')),
      callbackTimeoutMs: SIGN_IN_TIMEOUT_MS,
      clientVersion: version,
    },
  });
  let servers: readonly ServerConfig[] = [];
  let pending = Promise.resolve();

  const resting = (): RestingServers => restingServers(readToolsConfig(), servers, readQuiverSetting('mcpEagerServers').value);

  /** Reloads are chained so a slow file read never applies an older config over a newer one. */
  const reload = (): void => {
    pending = pending.then(async () => {
      const merged = mergeServerConfigs(await readLayers(), vscode.workspace.isTrusted);
      for (const error of merged.errors) log.error(error.message);
      servers = merged.servers;
      manager.applyConfig(servers, resting());
    }).catch((error: unknown) => log.error(`Reading the MCP server configuration failed: ${String(error)}`));
  };

  // Chained too: an edit touching both settings must see the server list it brings.
  const followTools = (): void => {
    pending = pending.then(() => manager.setResting(resting())).catch((error: unknown) => log.error(`Applying quiver.tools to the MCP servers failed: ${String(error)}`));
  };

  const watcher = vscode.workspace.createFileSystemWatcher('**/.vscode/mcp.json');
  const disposables: vscode.Disposable[] = [
    watcher,
    watcher.onDidChange(reload),
    watcher.onDidCreate(reload),
    watcher.onDidDelete(reload),
    vscode.workspace.onDidChangeWorkspaceFolders(reload),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(SETTINGS.mcpServers.key)) reload();
      if (e.affectsConfiguration(SETTINGS.tools.key) || e.affectsConfiguration(SETTINGS.mcpEagerServers.key)) followTools();
    }),
    // SecretStorage tells every window of a change: a sign-in in one lets the others' waiting servers start.
    context.secrets.onDidChange((e) => {
      const url = serverUrlOfKey(e.key);
      if (url !== undefined) void manager.credentialsChanged(url);
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      manager.setWorkspaceTrusted(true);
      reload();
    }),
  ];
  reload();

  let disposed: Promise<void> | undefined;
  const host: McpHost = {
    manager,
    remoteServers: () => servers.filter((s): s is RemoteServerConfig => s.transport !== 'stdio'),
    dispose: () => {
      disposed ??= (async () => {
        for (const d of disposables) d.dispose();
        await pending;
        await manager.dispose();
      })();
      return disposed;
    },
  };
  context.subscriptions.push({ dispose: () => void host.dispose() });
  return host;
}

/** Lowest precedence first: user settings, mcp.json files, workspace settings, folder settings. */
async function readLayers(): Promise<ParsedServerConfigs[]> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const first = folders[0]?.uri.fsPath;
  const inspected = vscode.workspace.getConfiguration().inspect<unknown>(SETTINGS.mcpServers.key);
  const layers = [parseQuiverServers(inspected?.globalValue, { kind: 'userSettings' }, expansion(first))];
  for (const folder of folders) layers.push(await readMcpJson(folder));
  layers.push(parseQuiverServers(inspected?.workspaceValue, { kind: 'workspaceSettings' }, expansion(first)));
  // Only a multi-root workspace has a folder layer distinct from the workspace layer.
  if (vscode.workspace.workspaceFile !== undefined) {
    for (const folder of folders) {
      const value = vscode.workspace.getConfiguration(undefined, folder.uri).inspect<unknown>(SETTINGS.mcpServers.key)?.workspaceFolderValue;
      layers.push(parseQuiverServers(value, { kind: 'workspaceFolderSettings', folder: folder.uri.fsPath }, expansion(folder.uri.fsPath)));
    }
  }
  return layers;
}

async function readMcpJson(folder: vscode.WorkspaceFolder): Promise<ParsedServerConfigs> {
  const uri = vscode.Uri.joinPath(folder.uri, '.vscode', 'mcp.json');
  const source: ConfigSource = { kind: 'mcpJson', file: uri.fsPath };
  let text: string;
  try {
    text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return { servers: [], errors: [] };
  }
  const problems: ParseError[] = [];
  const value: unknown = parseJsonc(text, problems, { allowTrailingComma: true });
  if (problems.length > 0) {
    const detail = problems.map((p) => `${printParseErrorCode(p.error)} at offset ${p.offset}`).join(', ');
    return { servers: [], errors: [{ server: '', source, message: `${uri.fsPath}: not valid JSON (${detail}); fix the file to start its servers` }] };
  }
  return parseMcpJson(value, source, expansion(folder.uri.fsPath));
}

function expansion(workspaceFolder: string | undefined): ExpansionContext {
  return { env: process.env, workspaceFolder, userHome: homedir() };
}
