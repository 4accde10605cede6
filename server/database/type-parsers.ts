/**
 * How both engines turn PostgreSQL's text output into JavaScript values, so a row reads the same
 * whether PGlite or a real server produced it. Left alone by both drivers already: json/jsonb
 * (parsed), int2/int4/float (numbers), bool, numeric (a string, to keep its precision).
 */

/** PostgreSQL type oids whose text form the drivers would otherwise read differently. */
export const TYPE_OIDS = { int8: 20, timestamp: 1114, timestamptz: 1184, date: 1082 } as const;

/** `int8` (bigint, `count(*)`, `bigserial`) as a number; beyond 2^53 as a bigint, never rounded. */
export function parseInt8(text: string): number | bigint {
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : BigInt(text);
}

// PostgreSQL writes `2026-01-05 10:00:00.123456+00`, `…+05:30` or `…+05:30:15`; ISO 8601 wants a
// `T` and an offset with minutes (and no seconds, which only pre-1900 local-mean-time zones have).
const TIMESTAMP = /^(\d{4,}-\d\d-\d\d) (\d\d:\d\d:\d\d(?:\.\d+)?)(?:([+-]\d\d)(?::(\d\d))?(?::\d\d)?)?$/;

// The same in UTC (`+00`, or no offset for `timestamp`), a four-digit year (AD) and a valid day.
const UTC_TIMESTAMP =
  /^(\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])) ([01]\d:[0-5]\d:[0-5]\d|2[0-3]:[0-5]\d:[0-5]\d)(?:\.(\d{1,6}))?(?:\+00)?$/;

/**
 * `timestamptz` as an ISO 8601 string in UTC with milliseconds (`2026-01-05T10:00:00.123Z`), the
 * form `Date#toISOString` writes: it sorts as text and survives JSON. `timestamp` (without time
 * zone) is read as UTC. `infinity`, `-infinity` and BC dates come back as PostgreSQL wrote them.
 */
export function parseTimestamp(text: string): string {
  // What a server in UTC writes (its default): already the ISO form but for the `T`, the
  // milliseconds and the `Z`, so it is rewritten without a Date (parsed, then formatted) per value.
  const utc = UTC_TIMESTAMP.exec(text);
  if (utc) return `${utc[1]}T${utc[2]}.${utc[3] === undefined ? "000" : utc[3].padEnd(3, "0").slice(0, 3)}Z`;
  const match = TIMESTAMP.exec(text);
  if (!match) return text;
  const [, day, time, hours, minutes] = match;
  const offset = hours === undefined ? "Z" : `${hours}:${minutes ?? "00"}`;
  const date = new Date(`${day}T${time}${offset}`);
  return Number.isNaN(date.getTime()) ? text : date.toISOString();
}

/** `date` as PostgreSQL writes it, `YYYY-MM-DD`: a calendar day has no time zone to shift it. */
export function parseDate(text: string): string {
  return text;
}

/** The parsers both engines install, by type oid. */
export const TYPE_PARSERS: Readonly<Record<number, (text: string) => unknown>> = {
  [TYPE_OIDS.int8]: parseInt8,
  [TYPE_OIDS.timestamp]: parseTimestamp,
  [TYPE_OIDS.timestamptz]: parseTimestamp,
  [TYPE_OIDS.date]: parseDate,
};
