/** Whether a tool may be called, and whether its definition is sent up front (RFD 108). */
export type Availability = 'on' | 'discoverable' | 'off';
export const AVAILABILITIES: readonly Availability[] = ['on', 'discoverable', 'off'];

/** Which toggles may move a tool (RFD 081). `if_named_or_group` acts as `if_named` until groups exist. */
export type AllowToggle = 'any' | 'never' | 'if_named' | 'if_named_or_group';
export const ALLOW_TOGGLES: readonly AllowToggle[] = ['any', 'never', 'if_named', 'if_named_or_group'];

/** Whether a call runs at once or waits for the user's approval. */
export type RunPolicy = 'ask' | 'unattended';
export const RUN_POLICIES: readonly RunPolicy[] = ['ask', 'unattended'];

/**
 * How much of one result of the tool the model reads at once, in estimated tokens: a result up
 * to that size goes whole, a longer one is kept whole by reference and shown as a view of that
 * size (0: the reference alone). `whole`: never shortened.
 */
export type ResultTokens = number | 'whole';

/**
 * One layer's configuration of one tool after parsing. An unset field inherits from the
 * next layer down (tool, then `<server>__*`, then `*`), so unset must stay distinguishable
 * from any value: that is what makes the table form and the shorthand differ.
 */
export interface ToolEntry {
  readonly availability?: Availability;
  readonly allowToggle?: AllowToggle;
  readonly run?: RunPolicy;
  readonly resultTokens?: ResultTokens;
}

/** A parsed `quiver.tools` value (or a config delta): keys are tool names, `<server>__*` or `*`. */
export type ToolsConfig = ReadonlyMap<string, ToolEntry>;

export interface ResolvedTool {
  readonly availability: Availability;
  readonly allowToggle: AllowToggle;
  readonly run: RunPolicy;
  /** Unset: the `quiver.results.*` settings (or the server's size hint) decide. */
  readonly resultTokens?: ResultTokens;
}

/** A problem in a written configuration, phrased for the person who wrote it. */
export interface ConfigIssue {
  /** The setting path, e.g. `quiver.tools["github__create_issue"].enable`. */
  readonly path: string;
  readonly message: string;
  /** The `quiver.tools` key whose entry holds the problem; absent for a problem of the whole value. */
  readonly key?: string;
  /** The entry could not be read, so the tools taking their availability from it resolve off. */
  readonly turnsOff?: boolean;
}

export const DEFAULTS_KEY = '*';

export function serverDefaultsKey(server: string): string {
  return `${server}__*`;
}

/** The server part of a qualified name `<server>__<tool>`, for a tool not in the catalogue (its server is down). */
export function serverOfQualifiedName(name: string): string | undefined {
  const i = name.indexOf('__');
  return i > 0 ? name.slice(0, i) : undefined;
}

/** Locked off: hidden everywhere, never searchable, forceable or run. */
export function isLockedOff(tool: Pick<ResolvedTool, 'availability' | 'allowToggle'>): boolean {
  return tool.availability === 'off' && tool.allowToggle === 'never';
}
