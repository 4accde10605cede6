// `npx tsx bench/pattern-cost.ts`: what one pattern match costs at the caps the question model
// sets (PATTERN_SIZE_LIMIT instructions, PATTERN_VALUE_LIMIT characters), for the shapes that
// cost RE2 the most, and what the pattern the cap is for would cost without it. Each figure is
// a fresh compile's first match (its DFA built from nothing), the median and worst of 5.
import { RE2JS } from "re2js";
import { validateAnswers } from "../src/core/answers";
import {
  loadPatternEngine,
  PATTERN_SIZE_LIMIT,
  PATTERN_VALUE_LIMIT,
  patternProblem,
} from "../src/core/pattern";

/** Patterns that keep many RE2 states alive at once, each sized to reach `size` instructions. */
const SHAPES: Record<string, (repeat: number) => string> = {
  "optional run (?:a?){n}a{n}": (n) => `(?:a?){${n}}a{${n}}`,
  "dot-star chain (?:.*a){n}": (n) => `(?:.*a){${n}}`,
  "DFA blow-up (?:a|b)*a(?:a|b){n}": (n) => `(?:a|b)*a(?:a|b){${n}}`,
  "Unicode classes [\\p{L}\\p{N}]{1,n}": (n) => `[\\p{L}\\p{N}]{1,${n}}`,
};

function largestWithin(shape: (repeat: number) => string, size: number): string {
  let repeat = 1;
  while (RE2JS.compile(shape(repeat + 1)).programSize() <= size) repeat += 1;
  return shape(repeat);
}

function value(length: number): string {
  // a and b in an irregular order, so no DFA state repeats early; ends in a character none match.
  return `${Array.from({ length: length - 1 }, (_, i) => ((i * 7919) % 3 === 0 ? "b" : "a")).join("")}!`;
}

function firstMatch(pattern: string, text: string): number[] {
  const times: number[] = [];
  for (let run = 0; run < 5; run++) {
    const compiled = RE2JS.compile(pattern);
    const start = performance.now();
    compiled.matches(text);
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b);
}

async function main(): Promise<void> {
  console.log(
    `load average: ${(await import("node:os"))
      .loadavg()
      .map((n) => n.toFixed(1))
      .join(" ")}`,
  );
  await loadPatternEngine();
  for (let i = 0; i < 50; i++) RE2JS.compile("(?:a?){40}a{40}").matches("a".repeat(300));
  const text = value(PATTERN_VALUE_LIMIT);
  console.log(`caps: ${PATTERN_SIZE_LIMIT} instructions, ${PATTERN_VALUE_LIMIT} characters\n`);
  console.log("shape at the size cap, vs a value at the length cap | size | median ms | worst ms");
  for (const [name, shape] of Object.entries(SHAPES)) {
    const pattern = largestWithin(shape, PATTERN_SIZE_LIMIT);
    const times = firstMatch(pattern, text);
    const size = RE2JS.compile(pattern).programSize();
    console.log(`${name.padEnd(38)} | ${size} | ${times[2]?.toFixed(2)} | ${times[4]?.toFixed(2)}`);
  }
  const hostile = "(?:a?){1000}a{1000}";
  const long = "a".repeat(65_536);
  const uncapped = firstMatch(hostile, long);
  console.log(
    `\n${hostile} vs 64 KB, uncapped: median ${uncapped[2]?.toFixed(1)} ms, worst ${uncapped[4]?.toFixed(1)} ms`,
  );
  let start = performance.now();
  const problem = patternProblem(hostile);
  console.log(
    `the same pattern when the question is checked: refused in ${(performance.now() - start).toFixed(1)} ms (${problem})`,
  );
  const question = { id: "code", prompt: "Code?", input: { type: "text" as const, pattern: "a*" } };
  validateAnswers([question], { code: ["warm"] });
  start = performance.now();
  const issues = validateAnswers([question], { code: [long] });
  console.log(
    `a 64 KB answer to an allowed pattern: refused as ${issues[0]?.rule} in ${(performance.now() - start).toFixed(2)} ms`,
  );
}

await main();
