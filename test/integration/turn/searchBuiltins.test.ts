import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SETTINGS } from '../../../src/core/settingsRegistry';
import { ConversationStore } from '../../../src/core/stream/conversationStore';
import { createSearchBuiltins } from '../../../src/core/turn/searchBuiltins';
import { ConversationSession } from '../../../src/core/turn/session';
import { AnthropicModelClient } from '../../../src/providers/anthropic/anthropicModelClient';
import { reply, ScriptedMessagesApi, text, toolUse } from '../../fixtures/scriptedMessagesApi';
import { lastToolResults, MemoryToolSource, ScriptedApprover, signal, toolNames } from './harness';

describe('the loop wired to src/core/search', function () {
  this.timeout(10_000);

  it('searches with the real ranker, lists servers in the system prompt, promotes what it returned', async () => {
    const api = await ScriptedMessagesApi.start([reply(toolUse('s1', 'search_tools', { query: 'create github issue', limit: 1 })), reply(text('ok'))]);
    const folder = await mkdtemp(join(tmpdir(), 'quiver-search-'));
    try {
      const source = new MemoryToolSource({
        github: { running: true, tools: [{ name: 'create_issue', description: 'Create a new issue in a GitHub repository.' }, { name: 'list_commits', description: 'List commits of a branch.' }] },
        slack: { running: true, tools: [{ name: 'post_message', description: 'Post a message to a Slack channel.' }] },
      });
      const log = await new ConversationStore(folder).create();
      const session = new ConversationSession({
        log, source, builtins: createSearchBuiltins(), approver: new ScriptedApprover(), observer: {},
        model: new AnthropicModelClient({ apiKey: 'k', baseURL: api.url, maxRetries: 0 }),
        settings: () => ({ tools: { '*': { enable: 'discoverable' } }, model: 'claude-test', maxTokens: 512, maxCyclesPerTurn: 5, searchLoadBudget: SETTINGS.searchMaxLoadTokens.fallback }),
      });
      await session.send('file a bug', signal());
      assert.match(api.requests[0]?.body.system?.[0]?.text ?? '', /github[\s\S]*slack/);
      assert.deepEqual(toolNames(api.requests[1]?.body), ['search_tools', 'describe_tools', 'github__create_issue']);
      const [result] = lastToolResults(api.requests[1]?.body);
      assert.match(result?.text ?? '', /"name":"github__create_issue".*"status":"usable".*"total":/);
    } finally {
      await api.close();
      await rm(folder, { recursive: true, force: true });
    }
  });
});
