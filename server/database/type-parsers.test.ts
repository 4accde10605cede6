import { describe, expect, it } from "vitest";
import { parseTimestamp } from "./type-parsers";

describe("parseTimestamp", () => {
  it("reads what a server in UTC writes as an ISO string with milliseconds, cut not rounded", () => {
    expect(parseTimestamp("2026-01-05 10:00:00+00")).toBe("2026-01-05T10:00:00.000Z");
    expect(parseTimestamp("2026-01-05 10:00:00.1+00")).toBe("2026-01-05T10:00:00.100Z");
    expect(parseTimestamp("2026-01-05 23:59:59.999999+00")).toBe("2026-01-05T23:59:59.999Z");
    expect(parseTimestamp("0044-03-15 12:00:00.5+00")).toBe("0044-03-15T12:00:00.500Z");
  });

  it("reads a timestamp without time zone as UTC", () => {
    expect(parseTimestamp("2026-01-05 10:00:00.123456")).toBe("2026-01-05T10:00:00.123Z");
  });

  it("moves another zone's time to UTC, the offset's minutes and seconds included", () => {
    expect(parseTimestamp("2026-01-05 10:00:00.25+05:30")).toBe("2026-01-05T04:30:00.250Z");
    expect(parseTimestamp("2026-01-05 01:00:00-03")).toBe("2026-01-05T04:00:00.000Z");
    expect(parseTimestamp("1890-01-05 10:00:00+00:53:28")).toBe("1890-01-05T09:07:00.000Z");
  });

  it("gives back what has no ISO form as PostgreSQL wrote it", () => {
    expect(parseTimestamp("infinity")).toBe("infinity");
    expect(parseTimestamp("-infinity")).toBe("-infinity");
    expect(parseTimestamp("0044-03-15 12:00:00+00 BC")).toBe("0044-03-15 12:00:00+00 BC");
  });
});
