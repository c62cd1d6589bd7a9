import assert from 'node:assert/strict';
import { SEARCH_BUILTINS } from '../../../src/core/search/builtins';
import { renderServerIndex, renderSignInIndex, topicWords } from '../../../src/core/search/serverIndex';
import { CATALOGUE, tool } from './fixtures';

describe('server index', () => {
  it('lists each server with a count and its topics', () => {
    const text = renderServerIndex([
      { server: 'github', tools: CATALOGUE.filter((t) => t.server === 'github') },
      { server: 'empty', tools: [] },
    ]);
    assert.match(text, /search_tools/);
    assert.match(text, /- github \(3 tools\): issue, pull, request/);
    assert.doesNotMatch(text, /empty/);
  });

  it('names the servers waiting for sign-in, what they last listed in the same words, and how the user signs in; empty when none waits', () => {
    const text = renderSignInIndex([
      { server: 'linear', tools: [] },
      { server: 'github', tools: CATALOGUE.filter((t) => t.server === 'github') },
    ]);
    assert.equal(
      text,
      [
        '## Servers waiting for sign-in',
        'Their tools cannot be searched for, loaded or called until the user signs in. When a task needs one, tell the user to sign in: in the Tools view, click the server\'s "Sign in required" row, or run the command "Quiver: Sign In to MCP Server…".',
        '- github (3 tools): issue, pull, request',
        '- linear (its tools are not known until the user signs in)',
      ].join('\n'),
    );
    assert.equal(renderSignInIndex([]), '');
  });

  it('is empty when nothing is discoverable', () => {
    assert.equal(renderServerIndex([]), '');
  });

  it('never exceeds its size bound and says how much it left out', () => {
    const entries = Array.from({ length: 200 }, (_, i) => ({
      server: `server-${String(i).padStart(3, '0')}-with-a-long-name`,
      tools: [tool(`create_thing_${i}`, 'x', {}, `s${i}`), tool(`list_widgets_${i}`, 'y', {}, `s${i}`)],
    }));
    for (const maxChars of [2000, 500, 300, 50, 1]) {
      const text = renderServerIndex(entries, { maxChars });
      assert.ok(text.length <= maxChars, `${text.length} > ${maxChars}`);
    }
    assert.match(renderServerIndex(entries, { maxChars: 1000 }), /…and \d+ more servers \(\d+ tools\)$/);
  });

  it('drops action verbs and the server name from topics', () => {
    const tools = [tool('github_create_issue', '', {}, 'github'), tool('github_list_issues', '', {}, 'github'), tool('get_branch', '', {}, 'github')];
    assert.deepEqual(topicWords(tools, 5), ['issue', 'branch']);
  });

  it('shows the tools\' own words, never a stem: every word of a line is in a name or description of that server', () => {
    const servers: Record<string, [string, string][]> = {
      memory: [['create_entities', 'Create multiple new entities in the knowledge graph'], ['delete_entities', 'Delete entities and their relations'], ['add_observations', 'Add observations to existing entities'], ['read_graph', 'Read the entire knowledge graph']],
      filesystem: [['list_directories', 'List directories'], ['create_directory', 'Create a new directory'], ['directory_tree', 'Get a recursive tree view'], ['move_file', 'Move or rename files']],
      charts: [['set_axes', 'Set the chart axes'], ['get_axis_range', 'Get the range of one axis'], ['plotSeriesData', 'Plot a data series'], ['list_series', 'List the series of a chart']],
      registry: [['getPackageVersions', 'Versions of a package'], ['search_addresses', 'Find addresses'], ['get_address', 'One address'], ['list_statuses', 'Statuses']],
    };
    const entries = Object.entries(servers).map(([server, list]) => ({ server, tools: list.map(([name, description]) => tool(name, description, {}, server)) }));
    const text = renderServerIndex(entries);
    assert.match(text, /- memory \(4 tools\): entities, graph, observations/);
    assert.match(text, /- filesystem \(4 tools\): directory, file, move, tree/);
    assert.match(text, /- charts \(4 tools\): series, axes, axis, data, plot, range/);
    for (const entry of entries) {
      const line = text.split('\n').find((l) => l.startsWith(`- ${entry.server} (`));
      assert.ok(line, entry.server);
      const words = (line.split('): ')[1] ?? '').split(', ').filter((w) => w.length > 0);
      assert.ok(words.length > 0, line);
      const written = entry.tools.map((t) => `${t.toolName} ${t.description}`.toLowerCase());
      for (const word of words) assert.ok(written.some((w) => w.includes(word)), `"${word}" of ${entry.server} is not a word its tools use`);
    }
    assert.equal(renderServerIndex(entries), text, 'the same catalogue gives the same bytes');
    assert.doesNotMatch(text, /entitie\b|directorie\b|axe\b|addresse\b/);
  });
});

describe('builtin definitions', () => {
  it('are builtins with object schemas', () => {
    assert.deepEqual(SEARCH_BUILTINS.map((t) => t.name), ['search_tools', 'describe_tools']);
    for (const t of SEARCH_BUILTINS) {
      assert.equal(t.server, undefined);
      assert.equal(t.inputSchema['type'], 'object');
    }
  });
});
