import type { ContextManagementSetting } from '../context';
import { z } from 'zod';
import type { CacheTtlSetting } from '../context/cacheTtl';
import type { Effort, ThinkingLevel } from '../models/capabilities';
import { DEFAULT_MAX_TOKENS } from '../turn/maxTokens';

/**
 * Every setting Quiver reads, with the validation applied on read. A unit test checks this
 * list against package.json's `contributes.configuration`, so a setting is never read
 * without being declared (no IntelliSense) or declared without being read (dead).
 */
export const SETTINGS = {
  tools: { key: 'quiver.tools', schema: z.unknown(), fallback: {} as unknown },
  mcpServers: { key: 'quiver.mcpServers', schema: z.unknown(), fallback: {} as unknown },
  mcpStartupTimeoutMs: { key: 'quiver.mcp.startupTimeoutMs', schema: z.number().int().min(1000), fallback: 60_000 },
  /** The most of one result Quiver keeps at all (its whole, in the result store); the model reads a view of it. */
  mcpMaxResultChars: { key: 'quiver.mcp.maxResultChars', schema: z.number().int().min(1000), fallback: 10_000_000 },
  mcpEagerServers: { key: 'quiver.mcp.eagerServers', schema: z.array(z.string()), fallback: [] as string[] },
  model: { key: 'quiver.model', schema: z.string().min(1), fallback: 'claude-sonnet-5-5' },
  /**
   * A URL without its scheme (`localhost:8080`) parses as a URL of scheme `localhost:`, so the
   * scheme is checked by name. An invalid one is not replaced by the default: the key would go to
   * an address the user did not choose, so requests stop until it is fixed (ConfiguredModelClient).
   */
  anthropicBaseUrl: {
    key: 'quiver.anthropic.baseUrl',
    schema: z.union([z.literal(''), z.url({ protocol: /^https?$/, error: 'not an http:// or https:// URL' })]),
    fallback: '',
    hint: 'it must be empty (api.anthropic.com) or a whole URL with its scheme, like http://localhost:8080',
    instead: 'Quiver sends no request until it is fixed in settings.json',
  },
  anthropicPromotionRendering: { key: 'quiver.anthropic.promotionRendering', schema: z.enum(['toolReference', 'toolsArray']), fallback: 'toolReference' as 'toolReference' | 'toolsArray' },
  searchMaxLoadTokens: { key: 'quiver.search.maxLoadTokens', schema: z.number().int().min(0), fallback: 4000 },
  /** Defaults chosen by `npm run bench -- --only results` (README, "Tool results"). */
  resultsMaxTokens: { key: 'quiver.results.maxTokens', schema: z.number().int().min(0), fallback: 2000, hint: 'it must be a whole number of estimated tokens, 0 or more (0 shows a shortened result by its reference alone)' },
  resultsThresholdTokens: { key: 'quiver.results.thresholdTokens', schema: z.number().int().min(0), fallback: 8000, hint: 'it must be a whole number of estimated tokens, 0 or more' },
  /** `auto`: the API clears old tool results and compacts where the model supports it (core/context/policy.ts). */
  contextManagement: { key: 'quiver.context.management', schema: z.enum(['auto', 'off']), fallback: 'auto' as ContextManagementSetting },
  maxCyclesPerTurn: { key: 'quiver.maxCyclesPerTurn', schema: z.number().int().min(1), fallback: 25 },
  /** 0: the model's own `max_tokens` from the models list, capped (see maxTokensFor). */
  maxTokens: { key: 'quiver.maxTokens', schema: z.number().int().min(0), fallback: 0, hint: `0 uses the model's own limit (at most ${DEFAULT_MAX_TOKENS.toLocaleString('en-US')}); another whole number is the most output tokens per reply` },
  /** `disabled` is not offered: Sonnet 5.5 refuses it (between_tools is its lowest setting). */
  thinking: { key: 'quiver.thinking', schema: z.enum(['adaptive', 'between_tools']), fallback: 'adaptive' as ThinkingLevel },
  /** Empty: the model's own default effort. */
  effort: { key: 'quiver.effort', schema: z.enum(['', 'low', 'medium', 'high', 'xhigh', 'max']), fallback: '' as Effort | '' },
  /** `auto`: what `npm run bench -- --only cacheTtl` found cheaper (AUTO_CACHE_TTL). */
  cacheTtl: {
    key: 'quiver.cache.ttl',
    schema: z.enum(['auto', '5m', '1h']),
    fallback: 'auto' as CacheTtlSetting,
    hint: 'it must be "auto", "5m" or "1h" (a string, with the unit)',
  },
} as const;

/** The section every key above is under, for "did any Quiver setting change". */
export const SETTINGS_SECTION = 'quiver';

export type SettingName = keyof typeof SETTINGS;
export type SettingValue<N extends SettingName> = z.infer<(typeof SETTINGS)[N]['schema']>;

export interface SettingRead<T> {
  readonly value: T;
  /**
   * Set when the written value was unusable: the fallback is in force, or for a setting with
   * `instead`, what its reader does instead (it checks `issue`).
   */
  readonly issue?: string;
}

/** Validates a raw settings value; an invalid one yields the fallback and a message naming the setting. */
export function readSetting<N extends SettingName>(name: N, raw: unknown): SettingRead<SettingValue<N>> {
  const setting = SETTINGS[name];
  if (raw === undefined) return { value: setting.fallback as SettingValue<N> };
  const parsed = setting.schema.safeParse(raw);
  if (parsed.success) return { value: parsed.data as SettingValue<N> };
  const why = parsed.error.issues.map((i) => i.message).join('; ');
  const hint = 'hint' in setting ? ` ${capitalized(setting.hint)}.` : '';
  const instead = 'instead' in setting ? `${setting.instead}.` : `Using ${JSON.stringify(setting.fallback)}; fix it in settings.json.`;
  return {
    value: setting.fallback as SettingValue<N>,
    issue: `${setting.key}: ${JSON.stringify(raw)} is not valid (${why}).${hint} ${instead}`,
  };
}

/** Every registered setting whose written value is unusable, by key, with its message; `written` gives a key's raw value. */
export function settingIssues(written: (key: string) => unknown): Map<string, string> {
  const issues = new Map<string, string>();
  for (const name of Object.keys(SETTINGS) as SettingName[]) {
    const { issue } = readSetting(name, written(SETTINGS[name].key));
    if (issue !== undefined) issues.set(SETTINGS[name].key, issue);
  }
  return issues;
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** `quiver.effort` as a request takes it: empty leaves the model's default. */
export function effortSetting(value: Effort | ''): Effort | undefined {
  return value === '' ? undefined : value;
}
