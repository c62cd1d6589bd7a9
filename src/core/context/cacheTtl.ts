/**
 * How long the prompt cache keeps the stable prefix of a conversation's requests (the tools and
 * the system prompt) after it was last written or read: "5m" (the API's default; a write costs
 * 1.25× the input price) or "1h" (a write costs 2×); a read costs 0.1× either way and refreshes it.
 * https://platform.claude.com/docs/en/build-with-claude/prompt-caching ("1-hour cache duration")
 */
export type CacheTtl = '5m' | '1h';

/** `quiver.cache.ttl`: a TTL, or `auto` for the one the bench found cheaper. */
export type CacheTtlSetting = 'auto' | CacheTtl;

/**
 * What `auto` means: the cheaper TTL in `npm run bench -- --only cacheTtl` (README, "Cache
 * time-to-live"). A person pauses past five minutes often enough that reading the stable prefix
 * after a pause (0.1×) instead of writing it again (1.25×) pays for its dearer first write.
 */
export const AUTO_CACHE_TTL: CacheTtl = '1h';

export function resolveCacheTtl(setting: CacheTtlSetting): CacheTtl {
  return setting === 'auto' ? AUTO_CACHE_TTL : setting;
}
