import { describeTools, renderServerIndex, renderSignInIndex, searchTools, SEARCH_BUILTINS, ToolIndex } from '../search';
import type { ToolCallResult } from '../tools/toolSource';
import type { ToolDefinition } from '../tools/definitions';
import type { BuiltinTools, SearchAnswer } from './ports';

function text(value: string, isError: boolean): ToolCallResult {
  return { content: [{ type: 'text', text: value }], isError };
}

/**
 * The builtins backed by src/core/search. The index follows the searchable set incrementally
 * (`sync` re-indexes only what changed, e.g. the tools a promotion removed from it); a second
 * index, ranked alike, follows the loaded (offered) tools, so a search that matches one of them
 * can say it is loaded. Two indexes rather than one: the searchable ranking (its scores decide
 * what loads) stays independent of what happens to be loaded.
 */
export function createSearchBuiltins(index = new ToolIndex(), loadedIndex = new ToolIndex(), signInIndex = new ToolIndex()): BuiltinTools {
  return {
    definitions: SEARCH_BUILTINS,
    search(input, searchable, loaded = [], signIn = []): SearchAnswer {
      index.sync(searchable);
      loadedIndex.sync(loaded);
      signInIndex.sync(signIn.flatMap((s) => s.tools));
      const result = searchTools(index, new Set(searchable.map((t) => t.name)), input, { loaded: loadedIndex, behindSignIn: signInIndex });
      if (!result.ok) return { ok: false, message: result.error };
      const { results, total, alreadyLoaded, signInRequired } = result.value;
      const serverOf = new Map(signIn.flatMap((s) => s.tools.map((t) => [t.name, s.server] as const)));
      return {
        ok: true,
        results,
        total,
        alreadyLoaded,
        signInRequired: signInRequired.map((hit) => ({ ...hit, server: serverOf.get(hit.name) ?? '' })),
        waitingForSignIn: signIn.filter((s) => s.tools.length === 0).map((s) => s.server),
      };
    },
    describe(input, permitted): ToolCallResult {
      const result = describeTools(new Map(permitted.map((t) => [t.name, t])), input);
      return result.ok ? text(JSON.stringify(result.value), false) : text(result.error, true);
    },
    signInIndex(waiting): string {
      return renderSignInIndex(waiting);
    },
    serverIndex(discoverable): string {
      const byServer = new Map<string, ToolDefinition[]>();
      for (const t of discoverable) {
        if (t.server === undefined) continue;
        const tools = byServer.get(t.server);
        if (tools) tools.push(t);
        else byServer.set(t.server, [t]);
      }
      return renderServerIndex([...byServer].map(([server, tools]) => ({ server, tools })));
    },
  };
}
