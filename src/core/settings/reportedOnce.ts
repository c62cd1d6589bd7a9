/** What changed in a set of problems since the last look. */
export interface ProblemChanges {
  /** Problems to report: their key had none, or another one, at the last look. */
  readonly fresh: readonly (readonly [key: string, text: string])[];
  /** Keys whose problem went away (a notice about it can go too). */
  readonly gone: readonly string[];
}

/**
 * Remembers which problems were reported, so that each is reported once per change of what is
 * written, however often it is read: the same key with the same text is not news. A problem that
 * went away is forgotten, so it is reported again if it comes back.
 */
export class ReportedOnce {
  private reported = new Map<string, string>();

  /** `current`: every problem there is now, by key (e.g. a setting's name). */
  update(current: ReadonlyMap<string, string>): ProblemChanges {
    const fresh = [...current].filter(([key, text]) => this.reported.get(key) !== text);
    const gone = [...this.reported.keys()].filter((key) => !current.has(key));
    this.reported = new Map(current);
    return { fresh, gone };
  }
}
