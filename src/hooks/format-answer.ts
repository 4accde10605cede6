import type { Question } from "@/lib/prepick/core/question";
import type { Count, PrepickMessages } from "./prepick-messages";

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/** A canonical decimal (`"1234.5"`) written for the locale (`1,234.5`); anything else as it is. */
export function formatNumber(messages: PrepickMessages, value: string | number): string {
  const number = typeof value === "number" ? value : Number(value);
  if (typeof value === "string" && (value.trim() === "" || !Number.isFinite(number))) return value;
  return new Intl.NumberFormat(messages.locale, { maximumFractionDigits: 20 }).format(number);
}

/** A number for a sentence: its value for the plural rules, its text for the locale. */
export function count(messages: PrepickMessages, value: number): Count {
  return { value, text: formatNumber(messages, value) };
}

/**
 * A `YYYY-MM-DD` day (`Dec 4, 2026`) or a local `YYYY-MM-DDTHH:mm` (`Dec 4, 2026, 2:30 PM`) written
 * for the locale; anything else as it is. The value is a wall-clock reading, not an instant, so it
 * is formatted as written, never moved to another time zone.
 */
export function formatDate(messages: PrepickMessages, value: string): string {
  const day = DATE.exec(value);
  const time = day ? undefined : DATETIME.exec(value);
  const parts = (day ?? time)?.slice(1).map(Number);
  if (!parts) return value;
  const [year = 0, month = 1, date = 1, hours = 0, minutes = 0] = parts;
  const instant = Date.UTC(year, month - 1, date, hours, minutes);
  if (Number.isNaN(instant)) return value;
  const options: Intl.DateTimeFormatOptions = time
    ? { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }
    : { dateStyle: "medium", timeZone: "UTC" };
  return new Intl.DateTimeFormat(messages.locale, options).format(instant);
}

/**
 * How one answer reads to the person in the settled view: an option's label, Yes or No in the
 * messages' language, a number or a date written for the locale, anything else as typed.
 */
export function formatAnswer(question: Question, value: string, messages: PrepickMessages): string {
  const option = question.options?.find((candidate) => candidate.value === value);
  if (option) return option.label;
  switch (question.input?.type) {
    case "boolean":
      return value === "true" ? messages.form.yes : value === "false" ? messages.form.no : value;
    case "number":
      return formatNumber(messages, value);
    case "date":
    case "datetime":
      return formatDate(messages, value);
    default:
      return value;
  }
}
