"use client";

import { useEffect, useState } from "react";

/** A deadline as a person reads it: when, how long is left, and whether it passed. */
export interface Deadline {
  /** True once it passed. */
  expired: boolean;
  /** When it is, for the locale: the time today, else the date and time. */
  time: string;
  /** How long is left, rounded down to its largest unit for the locale (`12 minutes`); empty once passed. */
  left: string;
  /** The deadline itself (ISO 8601), for a `<time dateTime>`. */
  at: string;
}

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** `ms` in its largest whole unit, written for `locale` (`2 days`, `3 hours`, `12 minutes`, `40 seconds`). */
function duration(ms: number, locale: Intl.LocalesArgument): string {
  const [unit, size] =
    ms >= 2 * DAY
      ? (["day", DAY] as const)
      : ms >= 2 * HOUR
        ? (["hour", HOUR] as const)
        : ms >= 2 * MINUTE
          ? (["minute", MINUTE] as const)
          : (["second", SECOND] as const);
  const amount = unit === "second" ? Math.ceil(ms / size) : Math.floor(ms / size);
  return new Intl.NumberFormat(locale, { style: "unit", unit, unitDisplay: "long" }).format(amount);
}

/** When `at` is, for `locale`: the time alone on the same day as `now`, else the date and time. */
function when(at: Date, now: Date, locale: Intl.LocalesArgument): string {
  const sameDay = at.toDateString() === now.toDateString();
  return new Intl.DateTimeFormat(locale, {
    ...(sameDay ? {} : { dateStyle: "medium" }),
    timeStyle: "short",
  }).format(at);
}

/** What `expiresAt` reads as at `now`; undefined for no deadline or one that is not a date. */
export function readDeadline(
  expiresAt: string | undefined,
  now: number,
  locale: Intl.LocalesArgument,
): Deadline | undefined {
  if (expiresAt === undefined) return undefined;
  const at = new Date(expiresAt);
  if (Number.isNaN(at.getTime())) return undefined;
  const left = at.getTime() - now;
  return {
    expired: left <= 0,
    time: when(at, new Date(now), locale),
    left: left > 0 ? duration(left, locale) : "",
    at: expiresAt,
  };
}

/**
 * A call's deadline (its run's `expiresAt`), kept current: every second in its last two minutes,
 * else every thirty seconds, and once more as it passes. Undefined when there is none: the call
 * waits as long as it takes.
 */
export function useDeadline(
  expiresAt: string | undefined,
  locale?: Intl.LocalesArgument,
): Deadline | undefined {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (expiresAt === undefined) return;
    const due = Date.parse(expiresAt);
    if (Number.isNaN(due)) return;
    const left = due - Date.now();
    if (left <= 0) {
      // Passed since the last render read the clock: read it once more, to say so.
      if (now < due) setNow(Date.now());
      return;
    }
    const wait = left > 2 * MINUTE ? Math.min(30 * SECOND, left - 2 * MINUTE + 1) : Math.min(SECOND, left);
    const timer = setTimeout(() => setNow(Date.now()), wait);
    return () => clearTimeout(timer);
  }, [expiresAt, now]);
  return readDeadline(expiresAt, now, locale);
}
