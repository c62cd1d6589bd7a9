import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { ESLint } from 'eslint';

const root = resolve(__dirname, '..', '..', '..', '..');

/** One import each layer must not make, and the rule name its lint error must carry. */
const WRONG_IMPORTS: readonly { file: string; code: string; rule: string }[] = [
  { file: 'src/mcp/index.ts', code: "import { fallbackCapabilities } from '../providers/anthropic/modelTable';", rule: 'mcp ↛ providers' },
  { file: 'src/providers/anthropic/cacheMiss.ts', code: "import { McpManager } from '../../mcp';", rule: 'providers ↛ mcp' },
  { file: 'src/core/text/textCut.ts', code: "import { McpManager } from '../../mcp';", rule: 'core ↛ mcp' },
  { file: 'src/extension/apiKey.ts', code: "import { McpManager } from '../mcp/manager/mcpManager';", rule: 'mcp face' },
  { file: 'src/core/text/textCut.ts', code: "import { parseHostToWebview } from '../../protocol';", rule: 'core ↛ protocol' },
  { file: 'src/mcp/index.ts', code: "import { activate } from '../extension/extension';", rule: 'mcp ↛ extension' },
  { file: 'src/extension/apiKey.ts', code: "import { ToolIndex } from '../core/search/toolIndex';", rule: 'core faces' },
  { file: 'src/protocol/schemas.ts', code: "import { ToolIndex } from '../core/search';", rule: 'protocol → core/chatView' },
  { file: 'webview/dom.ts', code: "import { ToolIndex } from '../src/core/search';", rule: 'webview → protocol' },
  { file: 'src/core/text/textCut.ts', code: "import * as vscode from 'vscode';", rule: 'Only src/extension may import vscode' },
];

describe('the layer matrix in eslint.config.mjs', () => {
  const eslint = new ESLint({ cwd: root, ruleFilter: ({ ruleId }) => ruleId === 'no-restricted-imports' });

  for (const { file, code, rule } of WRONG_IMPORTS) {
    it(`${file}: "${code}" fails naming "${rule}"`, async () => {
      const [result] = await eslint.lintText(`${code}\nexport const used = [${code.match(/import (?:\* as )?\{? ?(\w+)/)?.[1] ?? ''}];\n`, { filePath: resolve(root, file) });
      const messages = (result?.messages ?? []).map((m) => m.message);
      assert.ok(messages.some((m) => m.includes(rule)), `expected a message naming "${rule}", got ${JSON.stringify(messages)}`);
    });
  }

  it('the imports each layer does make pass', async () => {
    const [result] = await eslint.lintText("import { ToolIndex } from '../core/search';\nexport const used = [ToolIndex];\n", { filePath: resolve(root, 'src/extension/apiKey.ts') });
    assert.deepEqual(result?.messages, []);
  });
});
