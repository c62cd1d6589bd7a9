// Extension-host e2e tests: the real `vscode` API in code-server, with Quiver loaded from this
// repository (extensionDevelopmentPath) and the fixture workspace of test/e2e/workspace open.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { appliedToolsValue, parseToolsConfig, resolveTool } from '../../../src/core/availability';
import { allowAlways } from '../../../src/extension/alwaysAllow';
import { RunApprovals } from '../../../src/extension/runApprovals';
import { ToolSettings } from '../../../src/extension/settings';

const EXTENSION_ID = 'quiver-dev.quiver';
const COMMANDS = [
  'quiver.newChat', 'quiver.setApiKey', 'quiver.searchTools', 'quiver.restartServer', 'quiver.showLog',
  'quiver.openSettings', 'quiver.tool.makeOn', 'quiver.tool.makeDiscoverable', 'quiver.tool.makeOff',
  'quiver.signIn', 'quiver.signOut',
];

interface Contributes {
  viewsContainers?: { activitybar?: { id: string; title: string }[] };
  views?: Record<string, { id: string; name: string; type?: string }[]>;
  commands?: { command: string; title: string }[];
  menus?: { commandPalette?: { command: string; when?: string }[] };
}

function quiver(): vscode.Extension<unknown> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(ext, `extension ${EXTENSION_ID} is not loaded`);
  return ext;
}

describe('Quiver in the extension host', () => {
  it('activates', async () => {
    const ext = quiver();
    await ext.activate();
    assert.equal(ext.isActive, true);
  });

  it('contributes the Quiver container with the Chat webview and the Tools tree', () => {
    const c = (quiver().packageJSON as { contributes?: Contributes }).contributes ?? {};
    assert.deepEqual(c.viewsContainers?.activitybar?.map((v) => [v.id, v.title]), [['quiver', 'Quiver']]);
    const views = c.views?.['quiver'] ?? [];
    assert.deepEqual(views.map((v) => [v.id, v.name, v.type ?? 'tree']), [['quiver.chat', 'Chat', 'webview'], ['quiver.tools', 'Tools', 'tree']]);
  });

  it('registers its commands', async () => {
    await quiver().activate();
    const all = new Set(await vscode.commands.getCommands(true));
    const missing = COMMANDS.filter((c) => !all.has(c));
    assert.deepEqual(missing, [], `commands not registered: ${missing.join(', ')}`);
  });

  it('titles the tool context commands', () => {
    const c = (quiver().packageJSON as { contributes?: Contributes }).contributes ?? {};
    const titles = new Map((c.commands ?? []).map((x) => [x.command, x.title]));
    assert.equal(titles.get('quiver.tool.makeOn'), 'Make On');
    assert.equal(titles.get('quiver.tool.makeDiscoverable'), 'Make Discoverable');
    assert.equal(titles.get('quiver.tool.makeOff'), 'Make Off');
  });

  it('offers Sign In and Sign Out of an MCP server in the command palette (each asks which server)', () => {
    const c = (quiver().packageJSON as { contributes?: Contributes }).contributes ?? {};
    const titles = new Map((c.commands ?? []).map((x) => [x.command, x.title]));
    assert.deepEqual([titles.get('quiver.signIn'), titles.get('quiver.signOut')], ['Sign In to MCP Server…', 'Sign Out of MCP Server…']);
    const hidden = (c.menus?.commandPalette ?? []).filter((m) => m.when === 'false').map((m) => m.command);
    assert.deepEqual(hidden.filter((name) => name === 'quiver.signIn' || name === 'quiver.signOut'), []);
  });

  it('reads the fixture workspace settings', () => {
    const servers = vscode.workspace.getConfiguration('quiver').get<Record<string, unknown>>('mcpServers') ?? {};
    assert.deepEqual(Object.keys(servers).sort(), ['everything', 'filesystem', 'memory']);
  });

  it('reads quiver.anthropic.baseUrl from User settings in this remote window, and a workspace cannot set it', async () => {
    const config = vscode.workspace.getConfiguration('quiver');
    const user = config.inspect<string>('anthropic.baseUrl')?.globalValue;
    assert.match(user ?? '', /^http:\/\/127\.0\.0\.1:\d+$/, 'the e2e run writes the scripted API URL to User settings.json only');
    assert.equal(config.get('anthropic.baseUrl'), user);
    await assert.rejects(Promise.resolve(config.update('anthropic.baseUrl', 'http://127.0.0.1:9', vscode.ConfigurationTarget.Workspace)));
    assert.equal(vscode.workspace.getConfiguration('quiver').get('anthropic.baseUrl'), user);
  });

  it('round-trips quiver.tools through workspace settings', async () => {
    const config = () => vscode.workspace.getConfiguration('quiver');
    const before = config().inspect<Record<string, unknown>>('tools')?.workspaceValue;
    const written = { ...(before ?? {}), 'memory__read_graph': { enable: 'off' }, 'everything__echo': { enable: { availability: 'on', allow_toggle: 'if_named' }, run: 'unattended' } };
    try {
      await config().update('tools', written, vscode.ConfigurationTarget.Workspace);
      assert.deepEqual(config().inspect('tools')?.workspaceValue, written);
      assert.deepEqual(config().get('tools'), written);
    } finally {
      await config().update('tools', before, vscode.ConfigurationTarget.Workspace);
    }
    assert.deepEqual(config().inspect('tools')?.workspaceValue, before);
  });

  it('in a dev container, keeps "Always allow" in global state and lets no settings value loosen approval', async () => {
    const memento = new MapMemento();
    const approvals = new RunApprovals(memento, 'dev-container');
    const echo = { name: 'everything__echo', server: 'everything' };
    const runOf = (values: { user?: unknown; workspace?: unknown }): string =>
      resolveTool(parseToolsConfig(appliedToolsValue(values, approvals.trust()).value).value, echo).run;
    assert.equal(approvals.inUserSettings, false);
    assert.equal(runOf({ user: { '*': { run: 'unattended' } } }), 'ask');
    const settingsBefore = JSON.stringify(vscode.workspace.getConfiguration('quiver').inspect('tools'));
    await allowAlways(echo.name, new ToolSettings(vscode.Uri.file('/nonexistent/globalStorage/quiver')), approvals);
    assert.deepEqual(memento.get('quiver.alwaysAllowed'), ['everything__echo']);
    assert.equal(JSON.stringify(vscode.workspace.getConfiguration('quiver').inspect('tools')), settingsBefore, 'no settings scope was written');
    assert.equal(runOf({}), 'unattended');
    assert.equal(runOf({ workspace: { everything__echo: { run: 'ask' } } }), 'ask', 'a workspace may still make it ask');
    await approvals.remove([echo.name]);
    assert.deepEqual(approvals.keys(), []);
    // Outside a container, approvals live in User settings and nothing in global state counts.
    await memento.update('quiver.alwaysAllowed', ['everything__echo']);
    assert.deepEqual(new RunApprovals(memento, undefined).trust(), { userScopeTrusted: true, approvals: [] });
  });
});

/** An in-memory Memento, as global state is to the extension. */
class MapMemento implements vscode.Memento {
  private readonly values = new Map<string, unknown>();
  keys(): readonly string[] {
    return [...this.values.keys()];
  }
  get<T>(key: string, fallback?: T): T | undefined {
    return this.values.has(key) ? (this.values.get(key) as T) : fallback;
  }
  update(key: string, value: unknown): Thenable<void> {
    this.values.set(key, value);
    return Promise.resolve();
  }
}
