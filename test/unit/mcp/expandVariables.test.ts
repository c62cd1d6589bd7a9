import assert from 'node:assert/strict';
import { expandVariables } from '../../../src/mcp/config';

const context = { env: { TOKEN: 'secret', EMPTY: '' }, workspaceFolder: '/work/project', userHome: '/home/me' };

describe('variable expansion', () => {
  it('expands env, workspaceFolder and userHome, several per string', () => {
    assert.deepEqual(expandVariables('Bearer ${env:TOKEN}', context), { ok: true, value: 'Bearer secret' });
    assert.deepEqual(expandVariables('${workspaceFolder}/data:${userHome}/x', context), { ok: true, value: '/work/project/data:/home/me/x' });
    assert.deepEqual(expandVariables('[${env:EMPTY}]', context), { ok: true, value: '[]' });
    assert.deepEqual(expandVariables('no variables', context), { ok: true, value: 'no variables' });
  });

  it('reports an unset environment variable instead of expanding it to nothing', () => {
    const result = expandVariables('${env:MISSING}', context);
    assert.equal(result.ok, false);
    assert.match(!result.ok ? result.message : '', /environment variable MISSING is not set/);
  });

  it('reports ${workspaceFolder} without an open folder', () => {
    const result = expandVariables('${workspaceFolder}/x', { ...context, workspaceFolder: undefined });
    assert.match(!result.ok ? result.message : '', /no workspace folder is open/);
  });

  it('reports mcp.json inputs and unknown variables with what is supported', () => {
    assert.match(JSON.stringify(expandVariables('${input:apiKey}', context)), /does not prompt for/);
    assert.match(JSON.stringify(expandVariables('${config:editor.fontSize}', context)), /unknown variable/);
  });
});
