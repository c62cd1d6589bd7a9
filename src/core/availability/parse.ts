import {
  ALLOW_TOGGLES,
  AVAILABILITIES,
  RUN_POLICIES,
  type AllowToggle,
  type Availability,
  type ConfigIssue,
  type ToolEntry,
  type ToolsConfig,
} from './types';

type Parsed<T> = { readonly value: T; readonly issues: readonly ConfigIssue[] };

/** The string forms of `enable`, each setting both fields (`true` and `false` alias `"on"` and `"off"`). */
export const SHORTHANDS: Readonly<Record<string, Required<Pick<ToolEntry, 'availability' | 'allowToggle'>>>> = {
  on: { availability: 'on', allowToggle: 'any' },
  off: { availability: 'off', allowToggle: 'any' },
  always: { availability: 'on', allowToggle: 'never' },
  explicit: { availability: 'off', allowToggle: 'if_named' },
  discoverable: { availability: 'discoverable', allowToggle: 'any' },
};

/** Values as JSON a user can paste: `["on", "off"]`. */
function jsonList(values: readonly unknown[]): string {
  return `[${values.map((v) => JSON.stringify(v)).join(', ')}]`;
}

const ENABLE_ACCEPTS = `one of ${jsonList([true, false, ...Object.keys(SHORTHANDS)])}, or a table such as `
  + `{"availability": "discoverable", "allow_toggle": "if_named"} with "availability" one of ${jsonList(AVAILABILITIES)} `
  + `and "allow_toggle" one of ${jsonList(ALLOW_TOGGLES)}`;

/**
 * Invalid input must never leave a tool silently on: whatever could not be read resolves
 * the tool to off, and the issue says what to write instead.
 */
const INVALID: ToolEntry = { availability: 'off' };

function describe(value: unknown): string {
  if (typeof value === 'string') return `"${value}"`;
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return JSON.stringify(value) ?? typeof value;
}

function listed(values: readonly string[]): string {
  return values.map((v) => `"${v}"`).join(', ');
}

function parseAllowToggle(raw: unknown, path: string): Parsed<AllowToggle | undefined> {
  if (raw === undefined) return { value: undefined, issues: [] };
  if (raw === true) return { value: 'any', issues: [] };
  if (raw === false) return { value: 'never', issues: [] };
  if (typeof raw === 'string' && (ALLOW_TOGGLES as readonly string[]).includes(raw)) {
    return { value: raw as AllowToggle, issues: [] };
  }
  return {
    value: undefined,
    issues: [{ path, message: `${describe(raw)} is not a valid allow_toggle. Use one of ${listed(ALLOW_TOGGLES)}, true (any) or false (never).` }],
  };
}

function parseAvailability(raw: unknown, path: string): Parsed<Availability | undefined> {
  if (raw === undefined) return { value: undefined, issues: [] };
  if (typeof raw === 'string' && (AVAILABILITIES as readonly string[]).includes(raw)) {
    return { value: raw as Availability, issues: [] };
  }
  return {
    value: undefined,
    issues: [{ path, message: `${describe(raw)} is not a valid availability. Use one of ${listed(AVAILABILITIES)}.` }],
  };
}

function parseEnableTable(raw: Readonly<Record<string, unknown>>, path: string): Parsed<ToolEntry> {
  const known = new Set(['availability', 'state', 'allow_toggle']);
  const unknownKeys = Object.keys(raw).filter((k) => !known.has(k));
  if (unknownKeys.length > 0) {
    return {
      value: INVALID,
      issues: [{ path, message: `unknown key${unknownKeys.length > 1 ? 's' : ''} ${listed(unknownKeys)} in enable. Accepted keys: "availability", "allow_toggle" (and the legacy "state").` }],
    };
  }
  if ('state' in raw && 'availability' in raw) {
    return {
      value: INVALID,
      issues: [{ path, message: 'enable has both "state" and "availability", which name the same field. Keep "availability" and delete "state" ("state": true is "availability": "on", false is "off").' }],
    };
  }
  let availability: Parsed<Availability | undefined>;
  if ('state' in raw) {
    const state = raw['state'];
    availability = typeof state === 'boolean'
      ? { value: state ? 'on' : 'off', issues: [] }
      : { value: undefined, issues: [{ path: `${path}.state`, message: `${describe(state)} is not a valid state. Use true or false, or better "availability": ${listed(AVAILABILITIES)}.` }] };
  } else {
    availability = parseAvailability(raw['availability'], `${path}.availability`);
  }
  const allowToggle = parseAllowToggle(raw['allow_toggle'], `${path}.allow_toggle`);
  const issues = [...availability.issues, ...allowToggle.issues];
  if (issues.length > 0) return { value: INVALID, issues };
  return { value: withDefined({ availability: availability.value, allowToggle: allowToggle.value }), issues };
}

/** Parses every written form of `enable` in DESIGN.md's table. */
export function parseEnable(raw: unknown, path: string): Parsed<ToolEntry> {
  if (raw === true) return { value: SHORTHANDS['on']!, issues: [] };
  if (raw === false) return { value: SHORTHANDS['off']!, issues: [] };
  if (typeof raw === 'string') {
    const preset = SHORTHANDS[raw];
    if (preset) return { value: preset, issues: [] };
  }
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
    return parseEnableTable(raw as Record<string, unknown>, path);
  }
  return {
    value: INVALID,
    issues: [{ path, message: `${describe(raw)} is not a valid enable. Use ${ENABLE_ACCEPTS}.` }],
  };
}

function parseRun(raw: unknown, path: string): Parsed<ToolEntry> {
  if (typeof raw === 'string' && (RUN_POLICIES as readonly string[]).includes(raw)) {
    return { value: { run: raw as ToolEntry['run'] }, issues: [] };
  }
  // An unreadable run policy falls back to asking: the safe direction for approval.
  return {
    value: { run: 'ask' },
    issues: [{ path, message: `${describe(raw)} is not a valid run policy. Use ${listed(RUN_POLICIES)}.` }],
  };
}

const WHOLE = 'whole';

/** An unreadable resultTokens is left unset: the tool's results are bounded as every tool's are. */
function parseResultTokens(raw: unknown, path: string): Parsed<ToolEntry> {
  if (raw === WHOLE || (typeof raw === 'number' && Number.isInteger(raw) && raw >= 0)) return { value: { resultTokens: raw }, issues: [] };
  return {
    value: {},
    issues: [{ path, message: `${describe(raw)} is not a valid resultTokens. Use a whole number of estimated tokens, 0 or more (a result up to it goes whole, a longer one shows that much and is kept whole; 0 shows only a reference), or "${WHOLE}" (never shortened).` }],
  };
}

const ENTRY_KEYS = ['enable', 'run', 'resultTokens'];

/** Parses one tool's entry of `quiver.tools`: `{ "enable": …, "run": …, "resultTokens": … }`. */
export function parseToolEntry(raw: unknown, path: string): Parsed<ToolEntry> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    // It may have replaced (in VS Code's merge of scopes) an entry that asked before each call: ask.
    return { value: { ...INVALID, run: 'ask' }, issues: [{ path, message: `${describe(raw)} is not a tool entry. Write an object such as { "enable": "discoverable" }.`, turnsOff: true }] };
  }
  const entry = raw as Record<string, unknown>;
  const unknownKeys = Object.keys(entry).filter((k) => !ENTRY_KEYS.includes(k));
  const issues: ConfigIssue[] = unknownKeys.map((k) => ({ path: `${path}.${k}`, message: `unknown key "${k}". A tool entry accepts ${listed(ENTRY_KEYS)}.` }));
  const enable = entry['enable'] === undefined ? { value: {}, issues: [] } : parseEnable(entry['enable'], `${path}.enable`);
  const run = entry['run'] === undefined ? { value: {}, issues: [] } : parseRun(entry['run'], `${path}.run`);
  const resultTokens = entry['resultTokens'] === undefined ? { value: {}, issues: [] } : parseResultTokens(entry['resultTokens'], `${path}.resultTokens`);
  const enableIssues = enable.issues.map((i) => ({ ...i, turnsOff: true }));
  return { value: { ...enable.value, ...run.value, ...resultTokens.value }, issues: [...issues, ...enableIssues, ...run.issues, ...resultTokens.issues] };
}

/** Parses a whole `quiver.tools` value, or a config delta of the same shape. */
export function parseToolsConfig(raw: unknown, settingName = 'quiver.tools'): Parsed<ToolsConfig> {
  if (raw === undefined || raw === null) return { value: new Map(), issues: [] };
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    return { value: new Map(), issues: [{ path: settingName, message: `${describe(raw)} is not valid here. ${settingName} is an object mapping a tool name (or "*") to { "enable": … }.` }] };
  }
  const entries = new Map<string, ToolEntry>();
  const issues: ConfigIssue[] = [];
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    const parsed = parseToolEntry(value, `${settingName}[${JSON.stringify(key)}]`);
    entries.set(key, parsed.value);
    issues.push(...parsed.issues.map((i) => ({ ...i, key })));
  }
  return { value: entries, issues };
}

function withDefined(entry: { availability: Availability | undefined; allowToggle: AllowToggle | undefined }): ToolEntry {
  return {
    ...(entry.availability !== undefined ? { availability: entry.availability } : {}),
    ...(entry.allowToggle !== undefined ? { allowToggle: entry.allowToggle } : {}),
  };
}
