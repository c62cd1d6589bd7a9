import assert from 'node:assert/strict';
import { climbsOut, isInGitFolder, isInside, protectedChangeReason } from '../../../src/core/edits';

const SETTINGS = '{\n  // mine\n  "editor.tabSize": 2,\n  "quiver.tools": { "*": { "enable": "discoverable" } }\n}\n';

describe('files that decide what Quiver may do', () => {
  it('a change of quiver.* in .vscode/settings.json is protected, naming the key', () => {
    const after = SETTINGS.replace('"discoverable" }', '"discoverable", "run": "unattended" }');
    assert.equal(protectedChangeReason('/ws/.vscode/settings.json', SETTINGS, after), 'it changes Quiver\'s own settings (quiver.tools) in settings.json');
  });

  it('a change of other settings in the same file is not', () => {
    assert.equal(protectedChangeReason('/ws/.vscode/settings.json', SETTINGS, SETTINGS.replace('2', '4')), undefined);
  });

  it('adding quiver.* to a new settings file or a workspace file is protected; removing it too', () => {
    assert.match(protectedChangeReason('/ws/.vscode/settings.json', null, '{"quiver.mcp.eagerServers": ["x"]}') ?? '', /quiver\.mcp\.eagerServers/);
    assert.match(protectedChangeReason('/ws/my.code-workspace', '{"settings": {"quiver.model": "a"}}', '{"settings": {}}') ?? '', /quiver\.model/);
    assert.match(protectedChangeReason('/ws/.devcontainer/devcontainer.json', '{}', '{"customizations": {"vscode": {"settings": {"quiver.tools": {}}}}}') ?? '', /quiver\.tools/);
  });

  it('any change to .vscode/mcp.json is protected (it adds servers)', () => {
    assert.match(protectedChangeReason('/ws/.vscode/mcp.json', '{}', '{"servers": {}}') ?? '', /MCP servers/);
  });

  it('other files are not protected', () => {
    assert.equal(protectedChangeReason('/ws/src/settings.ts', null, '"quiver.tools"'), undefined);
  });

  it('paths: inside a root, .git folders, and ".." segments', () => {
    assert.equal(isInside('/ws', '/ws/a/b.ts'), true);
    assert.equal(isInside('/ws', '/ws'), true);
    assert.equal(isInside('/ws', '/wsx/a'), false);
    assert.equal(isInside('/ws', '/etc/passwd'), false);
    assert.equal(isInGitFolder('/ws/.git/config'), true);
    assert.equal(isInGitFolder('/ws/.github/x.yml'), false);
    assert.equal(climbsOut('../outside.txt'), true);
    assert.equal(climbsOut('src/..hidden/file'), false);
  });
});
