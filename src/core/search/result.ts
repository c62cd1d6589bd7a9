/** What a builtin returns: a value, or an error message written for the model to act on. */
export type BuiltinResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

export function ok<T>(value: T): BuiltinResult<T> {
  return { ok: true, value };
}

export function fail<T>(error: string): BuiltinResult<T> {
  return { ok: false, error };
}
