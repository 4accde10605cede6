/** Keys whose string values are ids minted per run (random or per-database), never content. */
const ID_KEYS = new Set(["id", "runId", "threadId", "messageId", "toolCallId", "lastSeq"]);

function collect(value: unknown, key: string | undefined, ids: string[]): void {
  if (typeof value === "string") {
    if (key !== undefined && ID_KEYS.has(key) && !ids.includes(value)) ids.push(value);
    return;
  }
  if (Array.isArray(value)) {
    // waitingFor lists call ids; other arrays pass their parent's key down only for waitingFor.
    for (const item of value) collect(item, key === "waitingFor" ? "id" : undefined, ids);
    return;
  }
  if (value && typeof value === "object") {
    for (const [childKey, child] of Object.entries(value)) collect(child, childKey, ids);
  }
}

/**
 * Replaces every id a run mints (run, thread, message, tool-call and part ids) with `<id:N>` in
 * order of first appearance, everywhere it occurs (also inside checkpoint names and text), so two
 * runs of the same conversation on different databases compare equal exactly when their content,
 * order and shape do.
 */
export function normalizeIds<T>(value: T): unknown {
  const ids: string[] = [];
  collect(value, undefined, ids);
  let text = JSON.stringify(value);
  // Longest first, so an id that extends another (`call-1` and `call-1-1`) is replaced whole.
  const order = ids.map((id, index) => ({ id, index })).sort((a, b) => b.id.length - a.id.length);
  for (const { id, index } of order) text = text.replaceAll(id, `<id:${index}>`);
  return JSON.parse(text) as unknown;
}
