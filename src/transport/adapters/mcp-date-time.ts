// MCP's `format: date-time` is RFC 3339 with a time zone (`2026-05-04T09:30:00+02:00`, as the
// SDK's ajv-formats checks it); a Prepick `datetime` is the person's local date and time to the
// minute (`2026-05-04T09:30`). The adapter runs where the person is, so local means this
// runtime's time zone.

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:?\d{2})$/;

function pad(value: number, length = 2): string {
  return String(Math.abs(value)).padStart(length, "0");
}

function local(date: Date): string {
  return `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/**
 * The local `YYYY-MM-DDTHH:mm` an RFC 3339 date-time stands for, or `undefined` when it is not one
 * or names a second within the minute (a minute cannot show it, and sending it back would change it).
 */
export function localDateTimeOf(value: string): string | undefined {
  const match = RFC3339.exec(value);
  if (!match) return undefined;
  const seconds = Number(match[6]) + Number(match[7] ?? 0);
  if (seconds !== 0) return undefined;
  const date = new Date(value.replace(" ", "T"));
  return Number.isNaN(date.getTime()) ? undefined : local(date);
}

/**
 * The RFC 3339 date-time of a local `YYYY-MM-DDTHH:mm`, with seconds and this runtime's offset:
 * `2026-05-04T09:30:00+02:00`. A local time a clock change skips is read as the clock reads it
 * (the hour after).
 */
export function rfc3339Of(localDateTime: string): string {
  const [day = "", time = ""] = localDateTime.split("T");
  const [year = 0, month = 1, date = 1] = day.split("-").map(Number);
  const [hours = 0, minutes = 0] = time.split(":").map(Number);
  const moment = new Date(0);
  // Set field by field: the Date constructor would read years 0–99 as 1900–1999.
  moment.setFullYear(year, month - 1, date);
  moment.setHours(hours, minutes, 0, 0);
  const offset = -moment.getTimezoneOffset();
  const sign = offset < 0 ? "-" : "+";
  return `${local(moment)}:00${sign}${pad(Math.trunc(offset / 60))}:${pad(offset % 60)}`;
}
