import { EFFORTS, type Effort, type ModelCapabilities, type ThinkingLevel } from '../models/capabilities';

/** What one request asks for: `quiver.thinking` and `quiver.effort` as the model can take them. */
export interface ResolvedThinking {
  readonly thinking: ThinkingLevel;
  /** Undefined: the field is left out, so the model's own default applies. */
  readonly effort: Effort | undefined;
  /** A setting the model cannot take as written, and what is sent instead (for the log or a notice). */
  readonly note?: string;
}

/** The settings contradict each other: no request can carry both, so none is sent. */
export interface ThinkingIssue {
  readonly issue: string;
}

/**
 * `between_tools` (thinking off) is refused at these efforts: documented for Sonnet 5.5, and
 * the models list describes it as an effort "the model does not allow with thinking off".
 * https://platform.claude.com/docs/en/models/sonnet-5-5/whats-new-sonnet-5-5
 */
const THINKING_OFF_REFUSES: readonly Effort[] = ['xhigh', 'max'];

/**
 * Resolves the two settings against what the model accepts. A level or effort the model does
 * not have is replaced by the nearest it has, with a note: switching models must not break a
 * conversation. `between_tools` with xhigh or max is a contradiction between the settings
 * themselves, so it is an issue naming both rather than a silent change of either.
 */
export function resolveThinking(level: ThinkingLevel, effort: Effort | undefined, capabilities: ModelCapabilities): ResolvedThinking | ThinkingIssue {
  const notes: string[] = [];
  let thinking = level;
  if (level === 'between_tools' && !capabilities.thinking.betweenTools) {
    thinking = 'adaptive';
    notes.push(`${capabilities.id} does not take quiver.thinking "between_tools"; it thinks adaptively instead.`);
  }
  const sent = effort === undefined ? undefined : nearestEffort(effort, capabilities.efforts);
  if (effort !== undefined && sent !== effort) {
    notes.push(sent === undefined
      ? `${capabilities.id} has no effort setting; quiver.effort "${effort}" is not sent.`
      : `${capabilities.id} has no "${effort}" effort; sending "${sent}", the highest it has below it.`);
  }
  if (thinking === 'between_tools' && sent !== undefined && THINKING_OFF_REFUSES.includes(sent)) {
    return {
      issue: `quiver.thinking "between_tools" cannot run at quiver.effort "${sent}": ${capabilities.id} takes between_tools only at low, medium or high effort. `
        + 'Set quiver.effort to "high" or lower (or empty for the model\'s default), or set quiver.thinking to "adaptive".',
    };
  }
  return { thinking, effort: sent, ...(notes.length > 0 ? { note: notes.join(' ') } : {}) };
}

export function isThinkingIssue(resolved: ResolvedThinking | ThinkingIssue): resolved is ThinkingIssue {
  return 'issue' in resolved;
}

/** The highest level the model has at or below `wanted`; undefined when it has none (or no effort parameter at all). */
function nearestEffort(wanted: Effort, accepted: readonly Effort[]): Effort | undefined {
  for (let i = EFFORTS.indexOf(wanted); i >= 0; i--) {
    const level = EFFORTS[i];
    if (level !== undefined && accepted.includes(level)) return level;
  }
  return undefined;
}
