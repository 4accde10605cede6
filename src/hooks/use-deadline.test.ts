import { describe, expect, it } from "vitest";
import { readDeadline } from "./use-deadline";

const at = Date.parse("2026-12-03T18:30:00Z");

describe("readDeadline", () => {
  it("says nothing without a deadline, or for one that is not a date", () => {
    expect(readDeadline(undefined, at, "en")).toBeUndefined();
    expect(readDeadline("soon", at, "en")).toBeUndefined();
  });

  it("writes how long is left in its largest whole unit, for the locale", () => {
    const expiresAt = new Date(at).toISOString();
    const left = (ms: number, locale = "en") => readDeadline(expiresAt, at - ms, locale)?.left;
    expect(left(3 * 86_400_000 + 5_000)).toBe("3 days");
    expect(left(5 * 3_600_000 + 59 * 60_000)).toBe("5 hours");
    expect(left(12 * 60_000 + 30_000)).toBe("12 minutes");
    expect(left(90_000)).toBe("90 seconds");
    expect(left(400)).toBe("1 second");
    expect(left(12 * 60_000, "de")).toBe("12 Minuten");
  });

  it("says when: the time alone on the same day, the date too on another", () => {
    const expiresAt = "2026-12-03T18:30:00Z";
    const sameDay = readDeadline(expiresAt, at - 1, "en");
    expect(sameDay?.time).not.toMatch(/2026/);
    const days = readDeadline(expiresAt, at - 3 * 86_400_000, "en");
    expect(days?.time).toMatch(/2026/);
  });

  it("is expired from the deadline on, with nothing left", () => {
    const expiresAt = new Date(at).toISOString();
    expect(readDeadline(expiresAt, at, "en")).toMatchObject({ expired: true, left: "", at: expiresAt });
    expect(readDeadline(expiresAt, at - 1, "en")?.expired).toBe(false);
  });
});
