// Plain-text tables for `npm run bench`. A table is { title, columns, rows, notes? }: rows are
// arrays of cells (strings or numbers, numbers printed to 3 decimals unless already strings).

function cell(value) {
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : value.toFixed(3);
  return value === undefined || value === null ? '' : String(value);
}

export function formatTable({ title, columns, rows, notes }) {
  const body = rows.map((r) => r.map(cell));
  const widths = columns.map((c, i) => Math.max(c.length, ...body.map((r) => (r[i] ?? '').length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  const out = [`\n${title}`, line(columns), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)];
  for (const note of notes ?? []) out.push(`  ${note}`);
  return out.join('\n');
}

export function printTables(tables) {
  for (const t of tables) console.log(formatTable(t));
}
