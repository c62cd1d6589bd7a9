import assert from 'node:assert/strict';
import { chipOf, type Attachment } from '../../../src/core/attachments/attachment';
import { decodeText } from '../../../src/core/attachments/decode';
import { rankFiles } from '../../../src/core/attachments/fuzzyFiles';
import { fileMention, parseMentions, resourceMention, withResourceNames } from '../../../src/core/attachments/mentions';

describe('resolving attachments', () => {
  it('finds #file, #selection and #problems mentions that start a word, each once, in order', () => {
    assert.deepEqual(parseMentions('what does #selection do? compare #file:src/a.ts, and #file:"my notes.md"'), [
      { kind: 'selection' },
      { kind: 'file', path: 'src/a.ts' },
      { kind: 'file', path: 'my notes.md' },
    ]);
    assert.deepEqual(parseMentions('#problems then #problems:workspace and #problems again'), [
      { kind: 'problems', scope: 'active' },
      { kind: 'problems', scope: 'workspace' },
    ]);
    assert.deepEqual(parseMentions('issue#selection, #selections, #filex, C# and #file:'), []);
  });

  it('writes a file mention the parser reads back, quoting paths with spaces', () => {
    for (const path of ['src/a.ts', 'docs/my notes.md']) assert.deepEqual(parseMentions(`see ${fileMention(path)} now`), [{ kind: 'file', path }]);
  });

  it('ranks files fuzzily: file-name prefix, then name, then path, then scattered letters; shorter paths first', () => {
    const paths = ['src/core/chatHistory.ts', 'src/extension/chatViewProvider.ts', 'test/unit/chat/chatHistory.test.ts', 'README.md', 'src/core/stream/transcript.ts'];
    assert.deepEqual(rankFiles('chathis', paths, 10), ['src/core/chatHistory.ts', 'test/unit/chat/chatHistory.test.ts']);
    assert.deepEqual(rankFiles('readme', paths, 10), ['README.md']);
    assert.deepEqual(rankFiles('cvp', paths, 10), ['src/extension/chatViewProvider.ts']);
    assert.deepEqual(rankFiles('core/', paths, 10), ['src/core/chatHistory.ts', 'src/core/stream/transcript.ts']);
    assert.equal(rankFiles('', paths, 2).length, 2);
    assert.deepEqual(rankFiles('zzz', paths, 10), []);
  });

  it('refuses binary and non-UTF-8 files with the reason, and decodes text', () => {
    assert.deepEqual(decodeText(new TextEncoder().encode('héllo')), { ok: true, text: 'héllo' });
    const png = decodeText(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]));
    assert.equal(png.ok, false);
    assert.match(png.ok ? '' : png.reason, /binary file/);
    const latin1 = decodeText(Uint8Array.from([0x63, 0x61, 0x66, 0xe9]));
    assert.match(latin1.ok ? '' : latin1.reason, /not UTF-8/);
  });

  it('shows an attachment as a chip: the file name, the path as tooltip, the lines', () => {
    const selection: Attachment = { kind: 'selection', id: 's', uri: 'file:///w/src/a.ts', path: 'src/a.ts', language: 'typescript', range: { start: 2, end: 4 }, text: '…' };
    assert.deepEqual(chipOf(selection), { id: 's', kind: 'selection', label: 'a.ts', path: 'src/a.ts', range: { start: 2, end: 4 } });
    assert.deepEqual(chipOf({ kind: 'problems', id: 'p', uri: null, path: null, text: '' }), { id: 'p', kind: 'problems', label: 'Problems (workspace)', path: 'the workspace', range: null });
  });
});

describe('resource mentions', () => {
  it('#resource:SERVER:URI names the server (up to the first colon) and the URI; quoted when it holds spaces', () => {
    assert.deepEqual(parseMentions('compare #resource:docs:file:///guide.md, and #resource:"docs:file:///my notes.md"'), [
      { kind: 'resource', server: 'docs', uri: 'file:///guide.md' },
      { kind: 'resource', server: 'docs', uri: 'file:///my notes.md' },
    ]);
    assert.deepEqual(parseMentions('#resource:docs: and #resource::x'), [], 'a mention with no server or no URI is no mention');
    assert.equal(resourceMention('everything', 'demo://resource/static/document/architecture.md'), '#resource:everything:demo://resource/static/document/architecture.md');
    assert.equal(resourceMention('docs', 'file:///my notes.md'), '#resource:"docs:file:///my notes.md"');
  });

  it('the text as sent names what a resource mention attached instead of its whole URI; other mentions and unattached ones stay as typed', () => {
    const names: Record<string, string> = { 'docs:file:///guide.md': 'guide.md', 'docs:file:///my notes.md': 'My notes' };
    const sent = withResourceNames('compare #resource:docs:file:///guide.md, #resource:"docs:file:///my notes.md" and #file:a.ts with #resource:docs:gone://x.', (server, uri) => names[`${server}:${uri}`]);
    assert.equal(sent, 'compare “guide.md”, “My notes” and #file:a.ts with #resource:docs:gone://x.');
  });
});

