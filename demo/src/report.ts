import { makeGreeting } from './greeting';

export interface Task {
  readonly title: string;
  readonly status: 'todo' | 'doing' | 'done';
}

/** A plain-text report of the tasks, grouped by status. */
export function renderReport(owner: string, tasks: readonly Task[], now: Date): string {
  const lines = [makeGreeting(owner, now.getHours()), ''];
  for (const status of ['todo', 'doing', 'done'] as const) {
    const group = tasks.filter((t) => t.status === status);
    lines.push(`${status} (${group.length})`, ...group.map((t) => `  - ${t.title}`));
  }
  return lines.join('\n');
}
