import type { UserMessage } from "./rows";

/** How many code points a thread's title keeps before it is cut. */
export const TITLE_CODE_POINTS = 60;

/**
 * A thread's title: its first user message on one line, cut to {@link TITLE_CODE_POINTS} code
 * points with an ellipsis. Cutting by code point never splits a surrogate pair, so an emoji or a
 * CJK character at the cut stays whole.
 */
export function threadTitle(message: UserMessage | null | undefined): string {
  const text = (message?.parts ?? [])
    .map((part) => (typeof part.text === "string" ? part.text : ""))
    .join(" ")
    .replace(/\s+/g, " ")
    .trim();
  const codePoints = Array.from(text);
  if (codePoints.length <= TITLE_CODE_POINTS) return text;
  return `${codePoints
    .slice(0, TITLE_CODE_POINTS - 1)
    .join("")
    .trimEnd()}…`;
}
