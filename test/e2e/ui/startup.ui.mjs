// MCP servers on their way up: a server still starting is listed under "Servers starting" with a
// spinner, never under "Servers not running" with a warning. ctx = { page, settingsFile }.
import { resolve } from 'node:path';
import { openSidebar, until, writeSetting } from './helpers.mjs';
import { readTree, rowIn, treeRow } from './tree.mjs';

const HANGS = resolve(import.meta.dirname, '..', '..', 'fixtures', 'mcp', 'hang-on-start-server.mjs');

export default function (t) {
  t.test('a server still starting is shown as starting, not as a server that is not running', async ({ page, settingsFile }) => {
    await openSidebar(page);
    writeSetting(settingsFile, ['quiver.mcpServers', 'slow'], { command: 'node', args: [HANGS] });
    try {
      // Its row under "Servers starting" (the group opened should it be closed), scrolled to.
      const row = await treeRow(page, ['Servers starting', 'slow']);
      const description = await row.innerText();
      if (!/starting/.test(description)) throw new Error(`the starting server reads "${description}"`);
      if ((await row.locator('.codicon-warning, .codicon-error').count()) > 0) throw new Error('the starting server carries a warning icon');
    } finally {
      writeSetting(settingsFile, ['quiver.mcpServers', 'slow'], undefined);
    }
    // Read through the whole tree: the group is gone, not just scrolled out of view.
    await until('the removed server is still listed as starting', async () => rowIn(await readTree(page), ['Servers starting']) === undefined);
  });
}
