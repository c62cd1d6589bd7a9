import assert from 'node:assert/strict';
import { disposeAll, fixture, manager, nodeServer, signal, textOf, waitFor } from './helpers';

const VALID = /^[a-zA-Z0-9_-]{1,64}$/;

describe('MCP tool catalogue', () => {
  afterEach(disposeAll);

  it('follows nextCursor through 2,000 tools served in pages', async () => {
    const { manager: m } = manager();
    m.applyConfig([nodeServer('big', fixture('paged-catalogue-server.mjs'), ['2000', '100'])]);
    await m.whenIdle();
    const tools = m.tools();
    assert.equal(m.status('big')?.state, 'running');
    assert.equal(tools.length, 2000);
    assert.equal(new Set(tools.map((t) => t.name)).size, 2000);
    assert.equal(tools[1999]?.name, 'big__tool_1999');
    assert.equal(textOf(await m.call('big__tool_1234', { n: 1 }, signal())), 'called tool_1234');
  });

  it('stops at the page bound, keeps what it read and logs that the list is incomplete', async () => {
    const { manager: m, log } = manager({ maxToolPages: 3 });
    m.applyConfig([nodeServer('big', fixture('paged-catalogue-server.mjs'), ['2000', '100'])]);
    await m.whenIdle();
    assert.equal(m.tools().length, 300);
    assert.ok(log.lines.some((l) => /warn \[big\] catalogue incomplete: stopped after 3 pages \(300 tools\) because the limit of 3 pages was reached/.test(l)));
  });

  it('follows tools/list_changed: tools are added and removed', async () => {
    const { manager: m } = manager({ listChangedDebounceMs: 50 });
    m.applyConfig([nodeServer('live', fixture('list-changed-server.mjs'))]);
    await m.whenIdle();
    assert.ok(m.tools().some((t) => t.name === 'live__alpha'));
    let changes = 0;
    m.onDidChange(() => changes++);
    await m.call('live__add_tool', { name: 'gamma' }, signal());
    await waitFor('gamma to appear', () => m.tools().some((t) => t.name === 'live__gamma'));
    await m.call('live__remove_tool', { name: 'alpha' }, signal());
    await waitFor('alpha to leave', () => !m.tools().some((t) => t.name === 'live__alpha'));
    assert.ok(changes >= 2);
    assert.equal(textOf(await m.call('live__gamma', {}, signal())), 'gamma ran');
  });

  it('debounces a burst of list_changed notifications into few refreshes', async () => {
    const { manager: m } = manager({ listChangedDebounceMs: 200 });
    m.applyConfig([nodeServer('live', fixture('list-changed-server.mjs'))]);
    await m.whenIdle();
    await m.call('live__burst', { count: 20 }, signal());
    await waitFor('burst tools', () => m.tools().filter((t) => t.name.startsWith('live__burst_')).length === 20);
    await new Promise((r) => setTimeout(r, 300));
    const requests = Number(textOf(await m.call('live__list_requests', {}, signal())));
    assert.ok(requests <= 3, `expected at most 3 tools/list requests (1 at start), got ${requests}`);
  });

  it('keeps the last good list when a refresh fails', async () => {
    const { manager: m, log } = manager({ listChangedDebounceMs: 20 });
    m.applyConfig([nodeServer('live', fixture('list-changed-server.mjs'))]);
    await m.whenIdle();
    const before = m.tools().map((t) => t.name);
    await m.call('live__break_listing', {}, signal());
    await waitFor('the refresh failure to be logged', () => log.lines.some((l) => /warn \[live\] refreshing the tool list failed \(.*catalogue backend unavailable.*\); keeping the last 6 tools/.test(l)));
    assert.deepEqual(m.tools().map((t) => t.name), before);
    assert.equal(m.status('live')?.state, 'running');
  });

  it('keeps tools of two servers with the same tool names apart and maps each back', async () => {
    const { manager: m } = manager();
    m.applyConfig([
      nodeServer('one', fixture('named-tools-server.mjs'), ['read', 'search'], { env: { FIXTURE_LABEL: 'first' } }),
      nodeServer('two', fixture('named-tools-server.mjs'), ['read', 'search'], { env: { FIXTURE_LABEL: 'second' } }),
    ]);
    await m.whenIdle();
    assert.deepEqual(m.tools().map((t) => [t.name, t.server, t.toolName]), [
      ['one__read', 'one', 'read'], ['one__search', 'one', 'search'], ['two__read', 'two', 'read'], ['two__search', 'two', 'search'],
    ]);
    assert.equal(textOf(await m.call('one__read', {}, signal())), 'first:read');
    assert.equal(textOf(await m.call('two__read', {}, signal())), 'second:read');
  });

  it('sanitizes awkward names into unique valid ones that map back exactly', async () => {
    const awkward = ['get.weather', 'tool with spaces', 'ünïcödé', 'a'.repeat(80), 'a.b', 'a/b', 'a_b', 'search_tools'];
    const { manager: m } = manager();
    m.applyConfig([nodeServer('my server.v2', fixture('named-tools-server.mjs'), awkward, { env: { FIXTURE_LABEL: 'odd' } })]);
    await m.whenIdle();
    const tools = m.tools();
    assert.equal(tools.length, awkward.length);
    assert.equal(new Set(tools.map((t) => t.name)).size, awkward.length);
    for (const tool of tools) {
      assert.match(tool.name, VALID);
      assert.notEqual(tool.name, 'search_tools');
      assert.equal(textOf(await m.call(tool.name, {}, signal())), `odd:${tool.toolName}`);
    }
    assert.deepEqual(tools.map((t) => t.toolName), awkward);
  });

  it('repairs invalid input schemas, skips a nameless tool, and logs each', async () => {
    const { manager: m, log } = manager();
    m.applyConfig([nodeServer('schemas', fixture('invalid-schema-server.mjs'))]);
    await m.whenIdle();
    assert.equal(m.status('schemas')?.state, 'running');
    assert.deepEqual(m.tools().map((t) => [t.toolName, t.inputSchema]), [
      ['good', { type: 'object', properties: { q: { type: 'string' } } }],
      ['string_schema', { type: 'object' }],
      ['missing_schema', { type: 'object' }],
      ['array_schema', { type: 'object' }],
      ['typeless', { properties: { q: { type: 'string' } }, type: 'object' }],
    ]);
    assert.ok(log.lines.some((l) => l.startsWith('warn [schemas] tool "string_schema": input schema is not an object schema')));
    assert.ok(log.lines.some((l) => l === 'warn [schemas] tool #6 skipped: it has no name'));
    assert.equal(textOf(await m.call('schemas__string_schema', { q: 1 }, signal())), 'string_schema got {"q":1}');
  });

  it('bounds a 1 MB description with a marker', async () => {
    const { manager: m } = manager({ maxDescriptionChars: 2000 });
    m.applyConfig([nodeServer('huge', fixture('huge-description-server.mjs'))]);
    await m.whenIdle();
    const verbose = m.tools().find((t) => t.toolName === 'verbose');
    assert.ok(verbose);
    assert.ok(verbose.description.length < 2100);
    assert.match(verbose.description, /\[description truncated: 1046576 of 1048576 characters omitted\]$/);
    assert.equal(m.tools().find((t) => t.toolName === 'terse')?.description, 'Short.');
  });

  it('survives malformed JSON-RPC lines from a server', async () => {
    const { manager: m, log } = manager();
    m.applyConfig([nodeServer('noisy', fixture('malformed-line-server.mjs'))]);
    await m.whenIdle();
    assert.equal(m.status('noisy')?.state, 'running');
    assert.equal(textOf(await m.call('noisy__garbage', {}, signal())), 'still here');
    assert.equal(m.status('noisy')?.state, 'running');
    assert.ok(log.lines.filter((l) => l.startsWith('warn [noisy] protocol error (ignored')).length >= 3);
  });
});
