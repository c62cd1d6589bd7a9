import assert from 'node:assert/strict';
import { describeTools } from '../../../src/core/search/describeTools';
import { CATALOGUE } from './fixtures';

const permitted = new Map(CATALOGUE.map((t) => [t.name, t]));

describe('describe_tools', () => {
  it('returns the full description and parameter docs, nested ones included', () => {
    const r = describeTools(permitted, { names: ['github__create_issue', 'slack__send_message'] });
    assert.ok(r.ok);
    const [issue, slack] = r.value;
    assert.equal(issue?.description, 'Create a new issue in a GitHub repository.');
    assert.deepEqual(issue?.parameters.find((p) => p.path === 'title'), { path: 'title', type: 'string', required: true, description: 'Issue title' });
    assert.ok(slack?.parameters.some((p) => p.path === 'message.blocks[].thumbnailUrl'));
  });

  it('names an unknown tool and suggests close matches', () => {
    const r = describeTools(permitted, { names: ['github__create_isue'] });
    assert.equal(r.ok, false);
    const error = r.ok ? '' : r.error;
    assert.match(error, /`github__create_isue`/);
    assert.match(error, /Did you mean `github__create_issue`/);
  });

  it('treats a tool outside the permitted set as unknown', () => {
    const without = new Map([...permitted].filter(([n]) => n !== 'postgres__query'));
    const r = describeTools(without, { names: ['postgres__query'] });
    assert.equal(r.ok, false);
    assert.match(r.ok ? '' : r.error, /No tool named `postgres__query`/);
  });

  it('suggests search_tools when nothing is close', () => {
    const r = describeTools(permitted, { names: ['zzzzzzzzzzzz'] });
    assert.match(r.ok ? '' : r.error, /search_tools/);
  });

  it('validates its input', () => {
    for (const input of [{}, { names: [] }, { names: 'echo' }, null]) assert.equal(describeTools(permitted, input).ok, false);
  });
});
