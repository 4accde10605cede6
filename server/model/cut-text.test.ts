import { describe, expect, test } from "vitest";
import { cutText, shorten } from "./cut-text";
import { inputFromSchema } from "./input-from-schema";

const characters = (text: string) => [...text].length;

/** Every start of `text` that ends between two graphemes, shortest first. */
function wholePrefixes(text: string): string[] {
  const segments = [...new Intl.Segmenter("en", { granularity: "grapheme" }).segment(text)];
  return ["", ...segments.map(({ index, segment }) => text.slice(0, index + segment.length))];
}

describe("cutting text", () => {
  test("never splits a surrogate pair, an emoji sequence or a letter from its accent", () => {
    const family = "👨‍👩‍👧"; // five code points, one grapheme
    const flag = "🇫🇷"; // two regional indicators
    const accented = "e\u0301"; // e and a combining acute accent
    for (const text of ["😀😀😀", `ab${family}cd`, `${flag}${flag}`, `${accented}${accented}`]) {
      for (let max = 0; max <= characters(text) + 1; max++) {
        const cut = cutText(text, max);
        expect(characters(cut)).toBeLessThanOrEqual(max);
        // The longest run of whole graphemes that fits.
        const fitting = wholePrefixes(text).filter((prefix) => characters(prefix) <= max);
        expect(cut).toBe(fitting.at(-1));
      }
    }
    expect(cutText("ab😀", 3)).toBe("ab😀");
    expect(cutText("ab😀", 2)).toBe("ab");
    expect(cutText(`ab${family}`, 6)).toBe("ab");
    expect(cutText(`ab${family}`, 7)).toBe(`ab${family}`);
  });

  test("shortens to at most the given characters, the last one an ellipsis", () => {
    const long = `${"x".repeat(76)}😀 and more`;
    expect(shorten(long, 80)).toBe(`${"x".repeat(76)}😀 a…`);
    expect(shorten(`${"x".repeat(78)}😀😀`, 80)).toBe(`${"x".repeat(78)}😀😀`);
    expect(shorten(`${"x".repeat(78)}😀😀😀`, 80)).toBe(`${"x".repeat(78)}😀…`);
    expect(shorten(`${"x".repeat(79)}😀😀`, 80)).toBe(`${"x".repeat(79)}…`);
    expect(shorten("short", 80)).toBe("short");
    expect(shorten(`${"x".repeat(79)}😀`, 80)).toBe(`${"x".repeat(79)}😀`);
  });

  test("a tool input made for a maxLength counts characters as the schema does, whole", () => {
    const input = inputFromSchema(
      {
        type: "object",
        properties: { title: { type: "string", maxLength: 3, minLength: 3 } },
        required: ["title"],
      },
      "😀😀😀😀",
    ) as { title: string };
    expect(input.title).toBe("😀😀😀");
    const padded = inputFromSchema(
      { type: "object", properties: { title: { type: "string", minLength: 4 } }, required: ["title"] },
      "😀",
    ) as { title: string };
    expect(padded.title).toBe("😀...");
  });
});
