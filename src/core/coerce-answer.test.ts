import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { coerceAnswer, formatDecimal } from "./coerce-answer";
import { INPUT_TYPES, type Question } from "./question";
import { typed } from "./question.fixture";

const number = typed({ type: "number" });
const boolean = typed({ type: "boolean" });
const date = typed({ type: "date" });

describe("coerceAnswer", () => {
  it("writes numbers as plain decimals", () => {
    expect(coerceAnswer(number, "42")).toBe("42");
    expect(coerceAnswer(number, "4.2e1")).toBe("42");
    expect(coerceAnswer(number, "042")).toBe("42");
    expect(coerceAnswer(number, " +7 ")).toBe("7");
    expect(coerceAnswer(number, "-0")).toBe("0");
    expect(coerceAnswer(number, "1.50")).toBe("1.5");
    expect(coerceAnswer(number, 1e-7)).toBe("0.0000001");
    expect(coerceAnswer(number, 1.5e21)).toBe("1500000000000000000000");
  });

  it("leaves what is not a decimal number for validation to refuse", () => {
    expect(coerceAnswer(number, "twelve")).toBe("twelve");
    expect(coerceAnswer(number, "0x10")).toBe("0x10");
    expect(coerceAnswer(number, "Infinity")).toBe("Infinity");
    expect(coerceAnswer(number, Number.NaN)).toBe("NaN");
  });

  it("writes booleans as true and false", () => {
    expect(coerceAnswer(boolean, true)).toBe("true");
    expect(coerceAnswer(boolean, false)).toBe("false");
    for (const word of ["TRUE", "yes", "on", "1", " Yes "]) expect(coerceAnswer(boolean, word)).toBe("true");
    for (const word of ["False", "no", "off", "0"]) expect(coerceAnswer(boolean, word)).toBe("false");
    expect(coerceAnswer(boolean, "maybe")).toBe("maybe");
  });

  it("writes dates as YYYY-MM-DD", () => {
    expect(coerceAnswer(date, "2026-1-5")).toBe("2026-01-05");
    expect(coerceAnswer(date, "2026-11-29T10:30:00Z")).toBe("2026-11-29");
    expect(coerceAnswer(date, new Date(2026, 0, 31, 23, 59))).toBe("2026-01-31");
    expect(coerceAnswer(date, "next tuesday")).toBe("next tuesday");
  });

  it("keeps every other type as typed", () => {
    for (const type of ["text", "textarea", "email", "url", "select"] as const) {
      expect(coerceAnswer(typed({ type }), "  Hello\nthere ")).toBe("  Hello\nthere ");
    }
    expect(coerceAnswer({ id: "q", prompt: "Q?" }, "module")).toBe("module");
    expect(coerceAnswer(typed({ type: "text" }), undefined)).toBe("");
    expect(coerceAnswer(typed({ type: "text" }), 12)).toBe("12");
  });

  const questions: Question[] = [{ id: "plain", prompt: "?" }, ...INPUT_TYPES.map((type) => typed({ type }))];

  it("never throws, and coercing a coerced value changes nothing", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...questions),
        fc.oneof(
          fc.anything(),
          fc.string(),
          fc.double(),
          fc.date({ noInvalidDate: false }),
          fc.stringMatching(/^[+-]?\d{0,4}(\.\d{0,4})?(e[+-]?\d{1,3})?$/),
          fc.stringMatching(/^\d{4}-\d{1,2}-\d{1,2}/),
        ),
        (question, raw) => {
          const once = coerceAnswer(question, raw);
          expect(typeof once).toBe("string");
          expect(coerceAnswer(question, once)).toBe(once);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("does not throw on values whose conversion to text throws", () => {
    const hostile = {
      toString() {
        throw new Error("no");
      },
    };
    expect(coerceAnswer(typed({ type: "text" }), hostile)).toBe("");
    expect(coerceAnswer(number, Symbol("x"))).toBe("Symbol(x)");
  });
});

describe("formatDecimal", () => {
  it("round-trips every finite double without exponent notation", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (value) => {
        const text = formatDecimal(value);
        expect(text).not.toMatch(/e/i);
        expect(Number(text)).toBe(value === 0 ? 0 : value);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("formatDecimal and coerceAnswer, case by case", () => {
  it("writes zero, negative zero and exponents both ways as plain decimals", () => {
    expect(formatDecimal(0)).toBe("0");
    expect(formatDecimal(-0)).toBe("0");
    expect(formatDecimal(1e21)).toBe("1000000000000000000000");
    expect(formatDecimal(-1.25e22)).toBe("-12500000000000000000000");
    expect(formatDecimal(1.5e-7)).toBe("0.00000015");
    expect(formatDecimal(-2e-7)).toBe("-0.0000002");
    expect(formatDecimal(12.5)).toBe("12.5");
  });

  it("reads numbers, booleans, nothing and text as the question's canonical string", () => {
    expect(coerceAnswer(number, 2)).toBe("2");
    expect(coerceAnswer(number, -0)).toBe("0");
    expect(coerceAnswer(number, Number.NaN)).toBe("NaN");
    expect(coerceAnswer(number, " 2.50 ")).toBe("2.5");
    expect(coerceAnswer(boolean, true)).toBe("true");
    expect(coerceAnswer(boolean, false)).toBe("false");
    expect(coerceAnswer(boolean, " Yes ")).toBe("true");
    expect(coerceAnswer(boolean, "maybe")).toBe("maybe");
    expect(coerceAnswer(typed({ type: "text" }), null)).toBe("");
    expect(coerceAnswer(typed({ type: "text" }), undefined)).toBe("");
    expect(coerceAnswer(typed({ type: "text" }), "  as typed  ")).toBe("  as typed  ");
    expect(coerceAnswer(typed({ type: "text" }), 12)).toBe("12");
  });

  it("reads dates and times from loose text, trimmed, and from Date objects, local", () => {
    expect(coerceAnswer(date, " 2026-3-7 ")).toBe("2026-03-07");
    expect(coerceAnswer(date, new Date(2026, 2, 7, 15, 30))).toBe("2026-03-07");
    expect(coerceAnswer(date, new Date(Number.NaN))).toBe("");
    const slot = typed({ type: "datetime" });
    expect(coerceAnswer(slot, " 2026-3-7 9:05 ")).toBe("2026-03-07T09:05");
    expect(coerceAnswer(slot, new Date(2026, 2, 7, 9, 5))).toBe("2026-03-07T09:05");
    expect(coerceAnswer(slot, new Date(Number.NaN))).toBe("");
  });
});
