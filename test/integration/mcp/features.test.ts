import assert from 'node:assert/strict';
import { resourceBlock } from '../../../src/core/attachments/blocks';
import { promptContent, resourceTexts } from '../../../src/mcp/features';
import { disposeAll, manager, nodeServer, npmServer, waitFor } from './helpers';

describe('MCP prompts and resources of server-everything', () => {
  afterEach(disposeAll);

  async function everything(): Promise<ReturnType<typeof manager>['manager']> {
    const { manager: m } = manager();
    m.applyConfig([nodeServer('everything', npmServer('everything'))]);
    await m.whenIdle();
    await waitFor('its prompts and resources', () => m.prompts().length > 0 && m.resources().length > 0);
    return m;
  }

  it('lists its prompts with their arguments, and gets one as the user\'s message', async () => {
    const m = await everything();
    const args = m.prompts().find((p) => p.name === 'args-prompt');
    assert.deepEqual(args?.arguments.map((a) => [a.name, a.required]), [['city', true], ['state', false]]);
    const content = promptContent(await m.getPrompt('everything', 'args-prompt', { city: 'Paris' }, AbortSignal.timeout(10_000)));
    assert.match(content.text, /Paris/);
    assert.deepEqual(content.resources, []);
  });

  it('a prompt that embeds a resource brings it as an attachment', async () => {
    const m = await everything();
    const content = promptContent(await m.getPrompt('everything', 'resource-prompt', { resourceType: 'Text', resourceId: '1' }, AbortSignal.timeout(10_000)));
    assert.equal(content.resources.length, 1);
    assert.ok((content.resources[0]?.text.length ?? 0) > 0);
  });

  it('lists its resources and reads one into the block the model reads', async () => {
    const m = await everything();
    const doc = m.resources().find((r) => r.uri.endsWith('architecture.md'));
    assert.ok(doc, JSON.stringify(m.resources().map((r) => r.uri)));
    const [part] = resourceTexts(await m.readResource('everything', doc.uri, AbortSignal.timeout(10_000)));
    assert.ok(part);
    const block = resourceBlock('everything', part.uri, part.mimeType, part.text);
    assert.match(block, /^Resource demo:\/\/resource\/static\/document\/architecture\.md from MCP server "everything" \(text\/markdown\):\n```\n# Everything Server/);
  });

  it('a server that is not running has no prompts or resources, and reading one says why', async () => {
    const m = await everything();
    await m.dispose();
    assert.deepEqual(m.prompts(), []);
    await assert.rejects(m.readResource('everything', 'demo://x', AbortSignal.timeout(1_000)), /MCP server "everything" is not running/);
  });
});
