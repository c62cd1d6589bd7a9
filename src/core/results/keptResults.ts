import type { KeptResult, StreamEvent } from '../stream/events';
import { charsOfTokens } from '../overhead/tokens';
import type { ToolCallResult } from '../tools/toolSource';
import type { ResolvedTool } from '../availability';
import { READ_RESULT_NAME, type ToolDefinition } from '../tools/definitions';
import { readKept } from './readKept';
import { parseReadRequest } from './readRequest';
import { keptRefs, refCounter } from './resultRefs';
import { resultLimitFor, type ResultSettings } from './resultLimit';
import type { ResultStore, StoredResult } from './resultStore';
import { resultText } from './resultText';
import { fitsWhole, shortenedView, unkeptView } from './resultView';

/** A result as the model gets it, and what the stream records of the whole when it was kept. */
export interface ShapedResult {
  readonly result: ToolCallResult;
  readonly kept?: KeptResult;
}

/** What one cycle's calls do with results: bound what tools return, and answer read_result. */
export interface KeptResults {
  /** A tool's result as the model gets it: whole when it fits its limit, else a view, the whole kept in the store first. */
  shape(name: string, result: ToolCallResult): Promise<ShapedResult>;
  /** read_result: reads only results this conversation's stream recorded as kept. */
  read(input: Readonly<Record<string, unknown>>): Promise<ToolCallResult>;
}

export interface KeptResultsInput {
  readonly store: ResultStore;
  /** The stream as the cycle starts: which refs exist, and where new ones count from. */
  readonly events: readonly StreamEvent[];
  readonly resolved: ReadonlyMap<string, ResolvedTool>;
  readonly permitted: readonly ToolDefinition[];
  readonly settings: ResultSettings;
}

/** read_result answers within the per-result budget, but never in less than this: with a budget of 0 (references only) it could show nothing. */
const READ_MIN_TOKENS = 1_000;
/** How many of the kept refs an unknown ref's error names (the latest). */
const REFS_NAMED = 20;

const failed = (text: string): ToolCallResult => ({ content: [{ type: 'text', text }], isError: true });

export function keptResults(input: KeptResultsInput): KeptResults {
  const nextRef = refCounter(input.events);
  const known = keptRefs(input.events);
  const limitOf = (name: string) => resultLimitFor(input.resolved.get(name), input.permitted.find((t) => t.name === name), input.settings);
  return {
    async shape(name, result) {
      const limit = limitOf(name);
      if (limit === 'whole' || fitsWhole(result.content, limit)) return { result };
      const view = shortenedView(result.content, result.isError, limit.budgetTokens, name, nextRef());
      try {
        await input.store.put(view.kept.ref, { name, content: result.content });
      } catch (err) {
        return { result: { isError: result.isError, content: unkeptView(view, err instanceof Error ? err.message : String(err)) } };
      }
      return { result: { isError: result.isError, content: view.content }, kept: view.kept };
    },
    async read(raw) {
      const parsed = parseReadRequest(raw);
      if (!parsed.ok) return failed(parsed.message);
      const { ref } = parsed.value;
      if (!known.includes(ref)) {
        const named = known.slice(-REFS_NAMED).join(', ');
        return failed(`read_result: this conversation kept no result "${ref}". ${known.length > 0 ? `Its kept results: ${named}${known.length > REFS_NAMED ? ' (the latest)' : ''}.` : 'None of its results was kept.'}`);
      }
      let stored: StoredResult | undefined;
      try {
        stored = await input.store.get(ref);
      } catch (err) {
        return failed(`read_result: ${ref} could not be read: ${err instanceof Error ? err.message : String(err)}`);
      }
      if (stored === undefined) return failed(`read_result: ${ref} is gone from this conversation's storage (it was removed outside Quiver). Call the tool again if you need it.`);
      const limit = limitOf(READ_RESULT_NAME);
      const budgetChars = limit === 'whole' ? Number.POSITIVE_INFINITY : charsOfTokens(Math.max(READ_MIN_TOKENS, limit.budgetTokens));
      return readKept(ref, resultText(stored.content), parsed.value, budgetChars);
    },
  };
}
