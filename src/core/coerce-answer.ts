import type { Question } from "./question";

/** A number written in decimal notation; hexadecimal, binary, octal and `Infinity` are not. */
export const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i;
const LOOSE_DATE = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:$|[T ])/;
// A date and a time to the minute; seconds are read only when they are zero, since the canonical
// form has none and dropping others would change the answer.
const LOOSE_DATETIME = /^(\d{4})-(\d{1,2})-(\d{1,2})[Tt ](\d{1,2}):(\d{2})(?::00(?:\.0+)?)?$/;
const TRUE_WORDS = new Set(["true", "yes", "y", "on", "1", "checked"]);
const FALSE_WORDS = new Set(["false", "no", "n", "off", "0", "unchecked"]);

/**
 * Writes a finite number as a plain decimal: `42`, `0.0000001`, `12000000000000000000000`,
 * never exponent notation, a leading zero or `-0`.
 */
export function formatDecimal(value: number): string {
  if (Object.is(value, -0) || value === 0) return "0";
  const text = String(value);
  const match = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!match) return text;
  const [, sign = "", lead = "", fraction = "", exponentText = "0"] = match;
  const digits = lead + fraction;
  const exponent = Number(exponentText);
  if (exponent >= 0) {
    const whole = digits.padEnd(exponent + 1, "0");
    const rest = digits.slice(exponent + 1);
    return `${sign}${whole.slice(0, exponent + 1)}${rest ? `.${rest}` : ""}`;
  }
  return `${sign}0.${"0".repeat(-exponent - 1)}${digits}`;
}

function pad(part: string, length: number): string {
  return part.padStart(length, "0");
}

function localDate(date: Date): string {
  if (Number.isNaN(date.getTime())) return "";
  return `${pad(String(date.getFullYear()), 4)}-${pad(String(date.getMonth() + 1), 2)}-${pad(String(date.getDate()), 2)}`;
}

function localDateTime(date: Date): string {
  const day = localDate(date);
  if (day === "") return "";
  return `${day}T${pad(String(date.getHours()), 2)}:${pad(String(date.getMinutes()), 2)}`;
}

function asText(raw: unknown): string {
  if (raw === undefined || raw === null) return "";
  if (typeof raw === "string") return raw;
  try {
    return String(raw);
  } catch {
    return "";
  }
}

/**
 * Turns what a person typed or picked into the question's one canonical string: numbers as
 * decimals (`"42"`), booleans as `"true"`/`"false"`, dates as `YYYY-MM-DD`, dates and times as
 * local `YYYY-MM-DDTHH:mm`, everything else as typed. A value that cannot be read as its type is returned as text, for validation to refuse
 * with a message. Never throws, and coercing a coerced value changes nothing.
 */
export function coerceAnswer(question: Question, raw: unknown): string {
  switch (question.input?.type) {
    case "number": {
      if (typeof raw === "number") return Number.isFinite(raw) ? formatDecimal(raw) : asText(raw);
      const text = asText(raw).trim();
      return DECIMAL.test(text) && Number.isFinite(Number(text)) ? formatDecimal(Number(text)) : text;
    }
    case "boolean": {
      if (typeof raw === "boolean") return raw ? "true" : "false";
      const text = asText(raw).trim().toLowerCase();
      if (TRUE_WORDS.has(text)) return "true";
      if (FALSE_WORDS.has(text)) return "false";
      return text;
    }
    case "date": {
      if (raw instanceof Date) return localDate(raw);
      const text = asText(raw).trim();
      const match = LOOSE_DATE.exec(text);
      if (!match) return text;
      const [, year = "", month = "", day = ""] = match;
      return `${year}-${pad(month, 2)}-${pad(day, 2)}`;
    }
    case "datetime": {
      if (raw instanceof Date) return localDateTime(raw);
      const text = asText(raw).trim();
      const match = LOOSE_DATETIME.exec(text);
      if (!match) return text;
      const [, year = "", month = "", day = "", hours = "", minutes = ""] = match;
      return `${year}-${pad(month, 2)}-${pad(day, 2)}T${pad(hours, 2)}:${minutes}`;
    }
    default:
      return asText(raw);
  }
}
