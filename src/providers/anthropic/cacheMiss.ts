import type Anthropic from '@anthropic-ai/sdk';

type Reason = Anthropic.Beta.Messages.BetaCacheMissReason;

const tokens = (n: number): string => `${n.toLocaleString('en-US')} tokens`;

/**
 * The API's `cache_miss_reason` in words, for the overhead breakdown; undefined when the cache
 * did not miss, the diagnosis is pending, or it is unavailable (a first request, or a change
 * of a setting such as `thinking` the API does not diagnose).
 */
export function describeCacheMiss(reason: Reason | null): string | undefined {
  if (reason === null) return undefined;
  switch (reason.type) {
    case 'model_changed':
      return `the model changed (${tokens(reason.cache_missed_input_tokens)} not read from cache)`;
    case 'system_changed':
      return `the system prompt changed (${tokens(reason.cache_missed_input_tokens)} not read from cache)`;
    case 'tools_changed':
      return `the tools changed (${tokens(reason.cache_missed_input_tokens)} not read from cache)`;
    case 'messages_changed':
      return `an earlier message changed (${tokens(reason.cache_missed_input_tokens)} not read from cache)`;
    case 'previous_message_not_found':
      return 'the API had no record of the previous reply to compare with';
    default:
      return undefined;
  }
}
