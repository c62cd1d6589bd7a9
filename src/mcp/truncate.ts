import { headOf } from '../core/text';

/** Bounds a tool description; the marker says how much was left out so the model knows it is partial. */
export function boundDescription(description: string, max: number): string {
  if (description.length <= max) return description;
  const head = headOf(description, max);
  return `${head}\n[description truncated: ${description.length - head.length} of ${description.length} characters omitted]`;
}

/**
 * The marker appended to a cut tool result: that it was cut, where, how much is missing, and
 * what to do about it, so that missing rows never read as rows that do not exist.
 */
export function resultCutMarker(keptChars: number, totalChars: number): string {
  return (
    `[TRUNCATED: the tool result was ${totalChars} characters; only the first ${keptChars} are shown ` +
    `and the remaining ${totalChars - keptChars} were cut. Call the tool again with narrower arguments ` +
    `(a filter, a range or a smaller page) to see the rest.]`
  );
}
