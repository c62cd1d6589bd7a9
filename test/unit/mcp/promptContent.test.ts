import assert from 'node:assert/strict';
import { promptContent, resourceTexts } from '../../../src/mcp/features';

describe('an MCP prompt as the user\'s message', () => {
  it('is the text of its one user message', () => {
    assert.deepEqual(promptContent({ messages: [{ role: 'user', content: { type: 'text', text: 'Review PR 42.' } }] }), { text: 'Review PR 42.', resources: [] });
  });

  it('quotes both sides of a scripted exchange, and attaches the resources it embeds', () => {
    const content = promptContent({
      messages: [
        { role: 'user', content: { type: 'text', text: 'What is in the guide?' } },
        { role: 'assistant', content: { type: 'text', text: 'Let me read it.' } },
        { role: 'user', content: { type: 'resource', resource: { uri: 'file:///guide.md', mimeType: 'text/markdown', text: '# Guide' } } },
        { role: 'user', content: { type: 'image', data: 'AAAA', mimeType: 'image/png' } },
      ],
    });
    assert.equal(content.text, 'User:\nWhat is in the guide?\n\nAssistant:\nLet me read it.\n\nUser:\n(attached: file:///guide.md)\n\nUser:\n(image content from the prompt is not shown)');
    assert.deepEqual(content.resources, [{ uri: 'file:///guide.md', mimeType: 'text/markdown', text: '# Guide' }]);
  });

  it('names a binary resource part instead of decoding it', () => {
    assert.deepEqual(resourceTexts({ contents: [{ uri: 'file:///logo.png', mimeType: 'image/png', blob: 'AAAA' }] }), [
      { uri: 'file:///logo.png', mimeType: 'image/png', text: '(binary content, image/png, not attached as text)' },
    ]);
  });
});
