// PostgreSQL's error classes that mean the server could not do the work now, not that the
// statement was wrong: 08 connection exception, 53 insufficient resources (53100 disk full, 53200
// out of memory, 53300 too many connections), 57P01-57P03 shut down or starting, 58030 I/O error.
const UNAVAILABLE_STATE = /^(08|53)[0-9A-Z]{3}$|^57P0[1-3]$|^58030$/;

// What Node and the pg driver raise when the connection is refused, cut or out of room.
const UNAVAILABLE_ERRNO = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ENOSPC",
  "EDQUOT",
]);

// The pg driver's own words when a connection ends under a statement, or cannot be had in time.
const UNAVAILABLE_MESSAGE =
  /Connection terminated|is not queryable|Client was closed|timeout exceeded when trying to connect|no space left on device/i;

/**
 * Whether an error says the store cannot be reached or cannot write just now (PostgreSQL stopped,
 * restarting, out of connections; a full disk), rather than that a statement was wrong: the
 * request that met it answers 503 with Retry-After, and a run that met it is handed back to be
 * resumed, not failed. The error's causes are looked through.
 */
export function isStoreUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (typeof current !== "object") return false;
    const { code, errno, message, cause } = current as {
      code?: unknown;
      errno?: unknown;
      message?: unknown;
      cause?: unknown;
    };
    if (typeof code === "string" && (UNAVAILABLE_STATE.test(code) || UNAVAILABLE_ERRNO.has(code)))
      return true;
    if (typeof errno === "string" && UNAVAILABLE_ERRNO.has(errno)) return true;
    if (typeof message === "string" && UNAVAILABLE_MESSAGE.test(message)) return true;
    if (current instanceof AggregateError && current.errors.some(isStoreUnavailable)) return true;
    current = cause;
  }
  return false;
}
