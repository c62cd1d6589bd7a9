import assert from 'node:assert/strict';
import { requestAction, toolAction } from '../../../src/core/search/action';

describe('actions of tools and requests', () => {
  it('reads a tool name\'s first verb, after a prefix too; a name without one has none', () => {
    assert.equal(toolAction('update_issue'), 'update');
    assert.equal(toolAction('API-post-page'), 'create');
    assert.equal(toolAction('listPaymentIntents'), 'read');
    assert.equal(toolAction('slack_reply_to_thread'), 'send');
    assert.equal(toolAction('whoami'), undefined);
    assert.equal(toolAction('constructor'), undefined, 'no word finds an Object.prototype key');
  });

  it('reads the action a request opens with: a verb, a question, a spoken verb', () => {
    assert.equal(requestAction('Find the matching issue.'), 'read');
    assert.equal(requestAction('Which issues are open in acme/quiver?'), 'read');
    assert.equal(requestAction('Can you delete the stale branch'), 'delete');
    assert.equal(requestAction('Draft a reply to John'), 'create');
    assert.equal(requestAction('Push the 3pm meeting to 4pm'), 'update');
    assert.equal(requestAction('Email the Q3 report to finance'), 'send');
  });

  it('looks at the first three words only, and finds nothing in a request that names no action', () => {
    assert.equal(requestAction('Show me the page that lists members'), 'read');
    assert.equal(requestAction('The page that the team created yesterday'), undefined);
    assert.equal(requestAction('incident page notion'), undefined);
    assert.equal(requestAction('hasOwnProperty toString constructor'), undefined);
  });
});
