/** Builds the greeting shown at the top of the report. */
export function makeGreeting(name: string, hour: number): string {
  const part = hour < 12 ? 'morning' : hour < 18 ? 'afternoon' : 'evening';
  return `Good ${part}, ${name}!`;
}
