import type { ElicitRequestFormParams } from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectMcpPair, type McpPair } from "./mcp-sdk.fixture";

let mcp: McpPair;
beforeAll(async () => {
  mcp = await connectMcpPair();
});
afterAll(() => mcp.close());

type Properties = ElicitRequestFormParams["requestedSchema"]["properties"];

// Every shape MCP's form mode has, with the rules that make the SDK's validation refuse.
const properties: Properties = {
  text: { type: "string", minLength: 2, maxLength: 5 },
  contact: { type: "string", format: "email", maxLength: 12 },
  site: { type: "string", format: "uri" },
  date: { type: "string", format: "date" },
  when: { type: "string", format: "date-time" },
  score: { type: "number", minimum: -1.5, maximum: 10 },
  count: { type: "integer", minimum: 0, maximum: 20 },
  flag: { type: "boolean" },
  color: { type: "string", enum: ["", "Red", "~x"] },
  hex: {
    type: "string",
    oneOf: [
      { const: "#F00", title: "Red" },
      { const: "#0F0", title: "Green" },
    ],
    default: "#F00",
  },
  colors: { type: "array", minItems: 1, maxItems: 2, items: { type: "string", enum: ["a", "b", "c"] } },
  hexes: {
    type: "array",
    maxItems: 1,
    items: {
      anyOf: [
        { const: "x", title: "X" },
        { const: "y", title: "Y" },
      ],
    },
    default: [],
  },
};

/** Values a person might type or pick: right, nearly right and wrong for every shape. */
const typed = fc.oneof(
  fc.constantFrom(
    "",
    " ",
    "ab",
    "abcdef",
    "2026-05-04",
    "2026-02-30",
    "2026-5-4",
    "2026-05-04T09:30",
    "2026-05-04T24:00",
    "2026-05-04 09:30",
    "tomorrow at 10",
    "3",
    "3.5",
    "-1.5",
    "-2",
    "1e1",
    "0x10",
    "21",
    "yes",
    "no",
    "true",
    "Red",
    "~x",
    "~",
    "#F00",
    "a",
    "x",
    "ada@example.com",
    "jürgen@example.com",
    "a..b@example.com",
    "a@b-.com",
    "https://example.com",
    "https://例え.jp/パス",
    "https://example.com/%zz",
    "mailto:ada@example.com",
    "urn:isbn:0451450523",
    "javascript:alert(1)",
  ),
  fc.string({ maxLength: 8 }),
);

const action = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant("pick" as const), index: fc.nat(3) }), weight: 2 },
  fc.record({ kind: fc.constant("set" as const), value: typed }),
  fc.record({ kind: fc.constant("set" as const), value: fc.array(typed, { maxLength: 4 }) }),
  fc.record({ kind: fc.constant("toggle" as const), value: typed }),
);

// A few questions touched per person, so that some forms come out right and some do not.
const plan = fc.dictionary(fc.constantFrom(...Object.keys(properties)), fc.array(action, { maxLength: 3 }), {
  maxKeys: 3,
});

describe("every answer the form lets a person submit, the real SDK accepts", () => {
  it("holds over random people filling in every MCP shape", async () => {
    const tally = { accept: 0, cancel: 0 };
    await fc.assert(
      fc.asyncProperty(
        plan,
        fc.subarray(Object.keys(properties), { maxLength: 3 }),
        async (steps, required) => {
          const params: ElicitRequestFormParams = {
            message: "Fill this in.",
            requestedSchema: {
              type: "object",
              properties,
              required,
            },
          };
          const trip = await mcp.elicit(params, async (block) => {
            for (const [id, actions] of Object.entries(steps)) {
              for (const step of actions) {
                if (step.kind === "set") block.setValue(id, step.value);
                else if (step.kind === "toggle") block.toggle(id, step.value);
                else {
                  const option = block.getQuestion(id)?.options[step.index];
                  if (option) block.toggle(id, option.value);
                }
              }
            }
            await block.submit();
          });
          expect(trip.parsed.success).toBe(true);
          const settled = trip.block?.getSnapshot().phase === "settled";
          // Either the form refused (and nothing was sent), or the server's own validation took it.
          expect(trip.error?.message).toBeUndefined();
          expect(trip.received?.action).toBe(settled ? "accept" : "cancel");
          tally[settled ? "accept" : "cancel"] += 1;
        },
      ),
      { numRuns: 400 },
    );
    // Both kinds of run happened often enough for the property to mean something.
    expect(tally.accept).toBeGreaterThan(40);
    expect(tally.cancel).toBeGreaterThan(40);
  });
});
