import assert from 'node:assert/strict';
import { McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { describeCallError, shapeToolResult } from '../../../src/mcp/results';

const context = { server: 'srv', tool: 'read', maxResultChars: 1000 };
const errorContext = {
  server: 'srv',
  tool: 'read',
  config: { transport: 'http', name: 'srv', url: 'https://mcp.example.com/mcp', headers: {}, source: { kind: 'userSettings' } } as const,
  timeoutMs: 30_000,
  stderrTail: () => ['panic: out of memory'],
};

describe('tool result shaping', () => {
  it('keeps text and images in order', () => {
    const shaped = shapeToolResult({ content: [{ type: 'text', text: 'hi' }, { type: 'image', data: 'AAAA', mimeType: 'image/png' }] }, context);
    assert.deepEqual(shaped, { isError: false, content: [{ type: 'text', text: 'hi' }, { type: 'image', data: 'AAAA', mimeType: 'image/png' }] });
  });

  it('renders structured content as compact JSON only when there is no text', () => {
    assert.deepEqual(shapeToolResult({ content: [], structuredContent: { a: 1, b: [true] } }, context).content, [{ type: 'text', text: '{"a":1,"b":[true]}' }]);
    assert.deepEqual(shapeToolResult({ content: [{ type: 'text', text: 'x' }], structuredContent: { a: 1 } }, context).content, [{ type: 'text', text: 'x' }]);
  });

  it('describes resources, links and audio in a line', () => {
    const shaped = shapeToolResult(
      {
        content: [
          { type: 'resource_link', uri: 'file:///a.txt', name: 'a.txt', description: 'notes' },
          { type: 'resource', resource: { uri: 'file:///b.txt', text: 'body' } },
          { type: 'resource', resource: { uri: 'file:///c.bin', blob: 'AAAA', mimeType: 'application/zip' } },
          { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
        ],
      },
      context,
    );
    assert.deepEqual(shaped.content.map((c) => (c.type === 'text' ? c.text : c.type)), [
      'Resource link: a.txt <file:///a.txt> — notes',
      'Resource <file:///b.txt>:\nbody',
      '[binary resource <file:///c.bin> (application/zip) not shown]',
      '[audio (audio/wav, 4 base64 characters) not shown: audio is not supported]',
    ]);
  });

  it('cuts text past the budget with a marker saying where and how much', () => {
    const shaped = shapeToolResult({ content: [{ type: 'text', text: 'a'.repeat(800) }, { type: 'text', text: 'b'.repeat(800) }, { type: 'text', text: 'c' }] }, context);
    const texts = shaped.content.map((c) => (c.type === 'text' ? c.text : ''));
    assert.deepEqual(texts.slice(0, 2), ['a'.repeat(800), 'b'.repeat(200)]);
    assert.match(texts[2] ?? '', /TRUNCATED: the tool result was 1601 characters; only the first 1000 are shown and the remaining 601 were cut/);
    assert.equal(texts.length, 3);
  });

  it('heads an error result with the tool and server', () => {
    const shaped = shapeToolResult({ isError: true, content: [{ type: 'text', text: 'disk full' }] }, context);
    assert.deepEqual(shaped, { isError: true, content: [{ type: 'text', text: 'The tool "read" of MCP server "srv" reported an error:\ndisk full' }] });
  });
});

describe('call errors', () => {
  const text = (e: unknown) => {
    const r = describeCallError(e, errorContext);
    assert.equal(r.isError, true);
    return r.content[0]?.type === 'text' ? r.content[0].text : '';
  };

  it('explains a timeout', () => {
    assert.match(text(new McpError(ErrorCode.RequestTimeout, 'Request timed out')), /did not answer within 30 s and the call was cancelled/);
  });

  it('explains a server that died mid-call with its last output', () => {
    assert.match(text(new McpError(ErrorCode.ConnectionClosed, 'Connection closed')), /stopped during the call\. Its last output:\npanic: out of memory/);
  });

  it('drops the SDK prefix and stack frames', () => {
    const message = text(new McpError(ErrorCode.InvalidParams, 'bad "path"\n    at validate (x.js:1:1)'));
    assert.equal(message, 'The tool "read" of MCP server "srv" rejected the arguments: bad "path"');
    assert.equal(text(new Error('boom\n    at a (b.js:1:1)')), 'The tool "read" of MCP server "srv" failed: boom');
  });
});
