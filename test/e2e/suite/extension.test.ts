// Extension-host e2e tests: the real `vscode` API in code-server, with Quiver loaded from this
// repository (extensionDevelopmentPath) and the fixture workspace of test/e2e/workspace open.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

const EXTENSION_ID = 'quiver-dev.quiver';
const COMMANDS = [
  'quiver.newChat', 'quiver.setApiKey', 'quiver.searchTools', 'quiver.restartServer', 'quiver.showLog',
  'quiver.openSettings', 'quiver.tool.makeOn', 'quiver.tool.makeDiscoverable', 'quiver.tool.makeOff',
];

interface Contributes {
  viewsContainers?: { activitybar?: { id: string; title: string }[] };
  views?: Record<string, { id: string; name: string; type?: string }[]>;
  commands?: { command: string; title: string }[];
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
});
