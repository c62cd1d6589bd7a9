import type { ModelCapabilities } from '../models/capabilities';

/**
 * The default ceiling when `quiver.maxTokens` is 0 ("the model's own limit"): thinking counts
 * toward max_tokens, so a small figure cuts replies mid tool call, while the model's whole
 * limit (128k on Sonnet 5.5) lets one runaway reply run for many minutes.
 */
export const DEFAULT_MAX_TOKENS = 32_000;

/** `max_tokens` for a request: the setting, else the default, never above what the model accepts. */
export function maxTokensFor(setting: number, capabilities: ModelCapabilities): number {
  const wanted = setting > 0 ? setting : DEFAULT_MAX_TOKENS;
  return Math.min(wanted, capabilities.maxTokens);
}
