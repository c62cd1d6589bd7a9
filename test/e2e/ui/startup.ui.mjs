// MCP servers on their way up: a server still starting is listed under "Servers starting" with a
// spinner, never under "Servers not running" with a warning. ctx = { page, settingsFile }.
import { resolve } from 'node:path';
import { SIDEBAR, openSidebar, until, writeSetting } from './helpers.mjs';

const HANGS = resolve(import.meta.dirname, '..', '..', 'fixtures', 'mcp', 'hang-on-start-server.mjs');
const rowNamed = (page, label) => page.locator(`${SIDEBAR} .monaco-list-row[role="treeitem"]`).filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${label}$`) }) });

export default function (t) {
  t.test('a server still starting is shown as starting, not as a server that is not running', async ({ page, settingsFile }) => {
    await openSidebar(page);
    writeSetting(settingsFile, ['quiver.mcpServers', 'slow'], { command: 'node', args: [HANGS] });
    try {
      // The tree redraws as servers report in, so a click can miss: expand until the row shows.
      await until('"slow" is not listed under "Servers starting"', async () => {
        const group = rowNamed(page, 'Servers starting');
        if ((await group.count()) > 0 && (await group.getAttribute('aria-expanded')) === 'false') await group.click();
        return (await rowNamed(page, 'slow').count()) > 0;
      });
      // The row sits under whichever group holds it; its icon and words say which.
      const row = rowNamed(page, 'slow');
      const description = await row.innerText();
      if (!/starting/.test(description)) throw new Error(`the starting server reads "${description}"`);
      if ((await row.locator('.codicon-warning, .codicon-error').count()) > 0) throw new Error('the starting server carries a warning icon');
    } finally {
      writeSetting(settingsFile, ['quiver.mcpServers', 'slow'], undefined);
    }
    await until('the removed server is still listed as starting', async () => (await rowNamed(page, 'Servers starting').count()) === 0);
  });
}
