import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SETTINGS } from '../../../src/core/settings/registry';
import { ConversationStore } from '../../../src/core/stream/conversationStore';
import { createSearchBuiltins } from '../../../src/core/turn/searchBuiltins';
import { ConversationSession } from '../../../src/core/turn/session';
import { AnthropicModelClient } from '../../../src/providers/anthropic/anthropicModelClient';
import { reply, ScriptedMessagesApi, text, toolUse, type MessagesBody } from '../../fixtures/scriptedMessagesApi';
import { DEFAULT_RESULTS, lastToolResults, MemoryToolSource, ScriptedApprover, signal, toolNames } from './harness';

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
      const store = new ConversationStore(folder);
      const log = await store.create();
      const session = new ConversationSession({
        log, source, builtins: createSearchBuiltins(), approver: new ScriptedApprover(), observer: {}, results: store.resultsOf(log.id),
        model: new AnthropicModelClient({ apiKey: 'k', baseURL: api.url, maxRetries: 0 }),
        settings: () => ({ tools: { '*': { enable: 'discoverable' } }, model: SETTINGS.model.fallback, maxTokens: 0, thinking: 'adaptive', effort: undefined, maxCyclesPerTurn: 5, searchLoadBudget: SETTINGS.searchMaxLoadTokens.fallback, results: DEFAULT_RESULTS, contextManagement: SETTINGS.contextManagement.fallback, cacheTtl: SETTINGS.cacheTtl.fallback }),
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

  it('under a load budget of 0 a search loads its best match and names the rest; a search by exact name with limit 1 loads one of those', async () => {
    const answerIn = (body: MessagesBody | undefined) => JSON.parse(lastToolResults(body)[0]?.text ?? '{}') as { results: { name: string }[]; not_loaded?: { name: string }[] };
    let listed = '';
    const api = await ScriptedMessagesApi.start([
      reply(toolUse('s1', 'search_tools', { query: 'github issue' })),
      {
        kind: 'decide',
        decide: (body) => {
          listed = answerIn(body).not_loaded?.at(-1)?.name ?? 'nothing listed';
          return reply(toolUse('s2', 'search_tools', { query: listed, limit: 1 }));
        },
      },
      reply(text('ok')),
    ]);
    const folder = await mkdtemp(join(tmpdir(), 'quiver-search-'));
    try {
      const issueTools = ['create_issue', 'close_issue', 'comment_on_issue'].map((name) => ({ name, description: `${name.replaceAll('_', ' ')} in a GitHub repository.` }));
      const source = new MemoryToolSource({ github: { running: true, tools: issueTools } });
      const store = new ConversationStore(folder);
      const log = await store.create();
      const session = new ConversationSession({
        log, source, builtins: createSearchBuiltins(), approver: new ScriptedApprover(), observer: {}, results: store.resultsOf(log.id),
        model: new AnthropicModelClient({ apiKey: 'k', baseURL: api.url, maxRetries: 0 }),
        settings: () => ({ tools: { '*': { enable: 'discoverable' } }, model: SETTINGS.model.fallback, maxTokens: 0, thinking: 'adaptive', effort: undefined, maxCyclesPerTurn: 5, searchLoadBudget: 0, results: DEFAULT_RESULTS, contextManagement: SETTINGS.contextManagement.fallback, cacheTtl: SETTINGS.cacheTtl.fallback }),
      });
      await session.send('close the bug', signal());
      const first = answerIn(api.requests[1]?.body);
      assert.equal(first.results.length, 1);
      assert.deepEqual(first.not_loaded?.map((t) => t.name).sort(), ['github__close_issue', 'github__comment_on_issue', 'github__create_issue'].filter((n) => n !== first.results[0]?.name).sort());
      // The last-ranked listed tool, so the exact name has to outrank the words it shares with the others.
      const second = answerIn(api.requests[2]?.body);
      assert.deepEqual(second.results.map((t) => t.name), [listed]);
      assert.equal(second.not_loaded, undefined);
      const deferred = (api.requests[2]?.body.tools ?? []).filter((t) => t.defer_loading === true).map((t) => t.name);
      assert.deepEqual(deferred.sort(), [first.results[0]?.name, listed].sort(), 'exactly the two loaded tools are deferred in tools');
    } finally {
      await api.close();
      await rm(folder, { recursive: true, force: true });
    }
  });
});
