/**
 * The tools a recorded request offers the model at its end, by the API's append-only rules:
 * those up front, plus deferred ones a tool_reference or a tool_addition loaded, less
 * tool_removals (the scripted models of the benches read it to decide what to call).
 */
export function callable(body) {
  const names = new Set((body.tools ?? []).filter((t) => t.defer_loading !== true).map((t) => t.name));
  for (const m of body.messages) {
    if (!Array.isArray(m.content)) continue;
    for (const b of m.content) {
      if (b.type === 'tool_addition') names.add(b.tool.name);
      if (b.type === 'tool_removal') names.delete(b.tool.name);
      if (b.type !== 'tool_result' || !Array.isArray(b.content)) continue;
      for (const c of b.content) if (c.type === 'tool_reference') names.add(c.tool_name);
    }
  }
  return names;
}
