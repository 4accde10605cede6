/** How many items a page holds when `limit` is left out. */
export const DEFAULT_PAGE_LIMIT = 50;
/** The most items one page holds. */
export const MAX_PAGE_LIMIT = 200;

/** A page request read from `?cursor=&limit=`, or the 400 message naming what is wrong. */
export type PageQuery =
  | { ok: true; limit: number; cursor: string | undefined }
  | { ok: false; error: string };

/**
 * Reads the paging convention every list route shares: `?limit=<n>` (1 to {@link MAX_PAGE_LIMIT},
 * default {@link DEFAULT_PAGE_LIMIT}) and `?cursor=<opaque>`, the `nextCursor` of the page before,
 * passed back unread here (the route decodes its own cursors with {@link readCursor}).
 */
export function readPageQuery(limit: string | undefined, cursor: string | undefined): PageQuery {
  let count = DEFAULT_PAGE_LIMIT;
  if (limit !== undefined) {
    count = /^\d{1,4}$/.test(limit) ? Number(limit) : Number.NaN;
    if (!(count >= 1 && count <= MAX_PAGE_LIMIT)) {
      return {
        ok: false,
        error: `limit must be a whole number from 1 to ${MAX_PAGE_LIMIT}, not ${JSON.stringify(limit)}`,
      };
    }
  }
  if (cursor === "") return { ok: false, error: 'cursor must be a nextCursor this server returned, not ""' };
  return { ok: true, limit: count, cursor };
}

/** A cursor: opaque to clients, a position to the route that made it. */
export function makeCursor(kind: string, position: number): string {
  return Buffer.from(`${kind}:${position}`).toString("base64url");
}

/** The position a cursor of `kind` holds; undefined when it is not one this server made. */
export function readCursor(kind: string, cursor: string): number | undefined {
  if (!/^[A-Za-z0-9_-]{1,40}$/.test(cursor)) return undefined;
  const match = new RegExp(`^${kind}:(\\d{1,9})$`).exec(Buffer.from(cursor, "base64url").toString());
  return match ? Number(match[1]) : undefined;
}
