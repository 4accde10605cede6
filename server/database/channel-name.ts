/** The longest identifier PostgreSQL keeps whole; a longer channel name would be cut silently. */
const MAX_CHANNEL_BYTES = 63;

/**
 * Checks a LISTEN/NOTIFY channel name and returns it quoted for `LISTEN`/`UNLISTEN`. Names are
 * case-sensitive and quoted, so `pg_notify('Runs', …)` reaches `listen("Runs")` on both engines.
 */
export function quoteChannel(channel: string): string {
  if (typeof channel !== "string" || channel === "") {
    throw new TypeError(`channel must be a non-empty string, got ${JSON.stringify(channel)}`);
  }
  if (new TextEncoder().encode(channel).length > MAX_CHANNEL_BYTES) {
    throw new RangeError(`channel "${channel}" must be at most ${MAX_CHANNEL_BYTES} bytes long`);
  }
  if (channel.includes("\0")) throw new TypeError(`channel ${JSON.stringify(channel)} must not contain NUL`);
  return `"${channel.replaceAll('"', '""')}"`;
}
