/** How many rows a page holds when `?limit=` is left out. */
export const DEFAULT_PAGE_SIZE = 50;
/** The most rows one page may hold. */
export const MAX_PAGE_SIZE = 200;

const WHOLE = /^\d{1,4}$/;

/** A list endpoint's `?cursor=<opaque>&limit=<n>`, read, or the 400 that names the bad field. */
export type PageQuery =
  | { ok: true; limit: number; cursor: unknown }
  | { ok: false; error: string; field: "cursor" | "limit"; value: string };

/**
 * Reads `?cursor=` and `?limit=`. A cursor is what an earlier page of the same endpoint returned as
 * `nextCursor`: base64url JSON whose first field names the endpoint (`kind`), so a cursor of one
 * list is refused by another. `read` checks the rest of its shape and answers undefined for a
 * cursor it did not make.
 */
export function readPageQuery(
  query: { cursor?: string | undefined; limit?: string | undefined },
  kind: string,
  read: (decoded: Record<string, unknown>) => unknown,
): PageQuery {
  const { limit: rawLimit, cursor: rawCursor } = query;
  let limit = DEFAULT_PAGE_SIZE;
  if (rawLimit !== undefined) {
    limit = WHOLE.test(rawLimit) ? Number(rawLimit) : Number.NaN;
    if (!(limit >= 1 && limit <= MAX_PAGE_SIZE)) {
      return {
        ok: false,
        field: "limit",
        value: rawLimit,
        error: `limit must be a whole number from 1 to ${MAX_PAGE_SIZE}; got ${JSON.stringify(rawLimit)}`,
      };
    }
  }
  if (rawCursor === undefined) return { ok: true, limit, cursor: undefined };
  const decoded = decodeCursor(rawCursor);
  const cursor = decoded && decoded.kind === kind ? read(decoded) : undefined;
  if (cursor === undefined) {
    return {
      ok: false,
      field: "cursor",
      value: rawCursor,
      error: `cursor must be a nextCursor this list returned; got ${JSON.stringify(rawCursor.slice(0, 100))}`,
    };
  }
  return { ok: true, limit, cursor };
}

/** A cursor for the list `kind`: opaque to clients, readable by {@link readPageQuery}. */
export function encodeCursor(kind: string, fields: Record<string, string | number>): string {
  return Buffer.from(JSON.stringify({ kind, ...fields }), "utf8").toString("base64url");
}

function decodeCursor(raw: string): Record<string, unknown> | undefined {
  if (raw.length > 1_000 || !/^[A-Za-z0-9_-]+$/.test(raw)) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
