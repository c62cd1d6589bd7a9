import { describeTools, renderServerIndex, searchTools, splitByLoadBudget, SEARCH_BUILTINS, ToolIndex } from '../search';
import { estimateToolTokens } from '../tokens';
import type { ToolCallResult } from '../toolSource';
import type { ToolDefinition } from '../tools';
import type { BuiltinTools, SearchAnswer } from './ports';

function text(value: string, isError: boolean): ToolCallResult {
  return { content: [{ type: 'text', text: value }], isError };
}

/**
 * The builtins backed by src/core/search. The index follows the searchable set incrementally
 * (`sync` re-indexes only what changed, e.g. the tools a promotion removed from it).
 */
export function createSearchBuiltins(index = new ToolIndex()): BuiltinTools {
  return {
    definitions: SEARCH_BUILTINS,
    search(input, searchable, loadBudget): SearchAnswer {
      index.sync(searchable);
      const byName = new Map(searchable.map((t) => [t.name, t]));
      const result = searchTools(index, new Set(byName.keys()), input);
      if (!result.ok) return { ok: false, message: result.error };
      const tokensOf = (hit: { readonly name: string }): number => {
        const tool = byName.get(hit.name);
        return tool ? estimateToolTokens(tool) : 0;
      };
      const { loaded, notLoaded } = splitByLoadBudget(result.value.results, tokensOf, loadBudget);
      return { ok: true, results: loaded, notLoaded, total: result.value.total };
    },
    describe(input, permitted): ToolCallResult {
      const result = describeTools(new Map(permitted.map((t) => [t.name, t])), input);
      return result.ok ? text(JSON.stringify(result.value), false) : text(result.error, true);
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
