// One conversation for a bench: a fresh stored conversation, the real Anthropic client against
// the scripted Messages API, every call allowed. `settings()` gives what the bench varies; the
// rest is the default model's defaults.

/** Turn settings on claude-sonnet-5-5 with Quiver's defaults, overridden by `settings`. */
function withDefaults(mods, settings) {
  return {
    model: 'claude-sonnet-5-5',
    maxTokens: 0,
    thinking: 'adaptive',
    effort: undefined,
    maxCyclesPerTurn: mods.settings.SETTINGS.maxCyclesPerTurn.fallback,
    searchLoadBudget: mods.settings.SETTINGS.searchMaxLoadTokens.fallback,
    searchPreload: mods.settings.SETTINGS.searchPreload.fallback,
    results: { maxTokens: mods.settings.SETTINGS.resultsMaxTokens.fallback, thresholdTokens: mods.settings.SETTINGS.resultsThresholdTokens.fallback },
    // The API's default TTL, so the other sections' tables compare what is sent at one price; cacheTtl.mjs compares TTLs.
    cacheTtl: '5m',
    ...settings,
  };
}

export async function benchSession(mods, { folder, source, apiUrl, client = {}, settings }) {
  const store = new mods.store.ConversationStore(folder);
  const log = await store.create();
  return new mods.session.ConversationSession({
    log, source, builtins: mods.searchBuiltins.createSearchBuiltins(), observer: {}, results: store.resultsOf(log.id),
    approver: { approve: async () => 'allow_once' },
    model: new mods.anthropic.AnthropicModelClient({ apiKey: 'bench', baseURL: apiUrl, maxRetries: 0, ...client }),
    settings: () => withDefaults(mods, settings()),
  });
}
