import type {
  ElicitRequest,
  ElicitRequestFormParams,
  ElicitResult,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, expectTypeOf, it } from "vitest";
import type {
  mcpElicitationToRequest,
  mcpResultToOutcome,
  outcomeToMcpResult,
} from "@/lib/prepick/transport/adapters/mcp-elicitation";
import { mcpQuestionId } from "@/lib/prepick/transport/adapters/mcp-names";
import { confirms, connectMcpPair, type McpPair, type Person } from "./mcp-sdk.fixture";

let mcp: McpPair;
beforeAll(async () => {
  mcp = await connectMcpPair();
});
afterAll(() => mcp.close());

type Properties = ElicitRequestFormParams["requestedSchema"]["properties"];

function form(properties: Properties, required?: string[]): ElicitRequestFormParams {
  return {
    mode: "form",
    message: "A few details, please.",
    requestedSchema: { type: "object", properties, ...(required ? { required } : {}) },
  };
}

/** Asks, lets the person act, and expects the server to have received exactly `content`. */
async function expectAccepted(params: ElicitRequestFormParams, person: Person, content: unknown) {
  const trip = await mcp.elicit(params, person);
  expect(trip.error).toBeUndefined();
  expect(trip.received).toEqual({ action: "accept", content });
  return trip;
}

const set =
  (values: Record<string, unknown>): Person =>
  async (block) => {
    for (const [name, raw] of Object.entries(values)) block.setValue(mcpQuestionId(name), raw);
    await block.submit();
  };

describe("the adapter's types against the SDK's own", () => {
  it("takes ElicitRequest['params'] (URL mode included) and ElicitResult as they come, and returns an ElicitResult", () => {
    expectTypeOf<ElicitRequest["params"]>().toExtend<Parameters<typeof mcpElicitationToRequest>[0]>();
    expectTypeOf<ElicitResult>().toExtend<Parameters<typeof mcpResultToOutcome>[1]>();
    expectTypeOf<ReturnType<typeof outcomeToMcpResult>>().toExtend<ElicitResult>();
  });
});

describe("the MCP specification's examples, through a real Server.elicitInput and Client", () => {
  it("a simple text request: the typed username comes back as the spec's response", async () => {
    const params: ElicitRequestFormParams = {
      mode: "form",
      message: "Please provide your GitHub username",
      requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
    };
    const trip = await expectAccepted(params, set({ name: "octocat" }), { name: "octocat" });
    if (!trip.parsed.success) throw new Error("expected questions");
    expect(trip.parsed.request.preamble).toBe("Please provide your GitHub username");
    expect(trip.outcome?.answers).toEqual({ name: ["octocat"] });
  });

  it("a structured data request: name, email and age come back typed", async () => {
    const params: ElicitRequestFormParams = {
      mode: "form",
      message: "Please provide your contact information",
      requestedSchema: {
        type: "object",
        properties: {
          name: { type: "string", description: "Your full name" },
          email: { type: "string", format: "email", description: "Your email address" },
          age: { type: "number", minimum: 18, description: "Your age" },
        },
        required: ["name", "email"],
      },
    };
    const person = set({ name: "Monalisa Octocat", email: "octocat@github.com", age: "30" });
    await expectAccepted(params, person, { name: "Monalisa Octocat", email: "octocat@github.com", age: 30 });
  });

  it("the required fields must be filled before the form can be confirmed", async () => {
    const params = form({ name: { type: "string" }, email: { type: "string", format: "email" } }, [
      "name",
      "email",
    ]);
    const trip = await mcp.elicit(params, confirms);
    expect(trip.block?.getSnapshot().phase).toBe("pending");
    expect(trip.block?.questions.map((question) => question.issues.map((issue) => issue.rule))).toEqual([
      ["required"],
      ["required"],
    ]);
    // Nothing the server would refuse was sent: the person gave up, which MCP calls cancel.
    expect(trip.received).toEqual({ action: "cancel" });
  });

  it("the string schema: its default is shown and sent when the person confirms", async () => {
    const params = form({
      contact: {
        type: "string",
        title: "Display Name",
        description: "Description text",
        minLength: 3,
        maxLength: 50,
        format: "email",
        default: "user@example.com",
      },
    });
    const trip = await expectAccepted(params, confirms, { contact: "user@example.com" });
    expect(trip.block?.questions[0]).toMatchObject({
      prompt: "Display Name",
      input: { type: "email", min: 3, max: 50 },
      value: ["user@example.com"],
    });
  });

  it("the number and boolean schemas: defaults sent as numbers and booleans", async () => {
    const params = form({
      score: { type: "number", title: "Display Name", minimum: 0, maximum: 100, default: 50 },
      count: { type: "integer", minimum: 0, maximum: 100, default: 50 },
      agree: { type: "boolean", title: "Display Name", default: false },
    });
    await expectAccepted(params, confirms, { score: 50, count: 50, agree: false });
    await expectAccepted(params, set({ score: "12.5", count: "7", agree: "yes" }), {
      score: 12.5,
      count: 7,
      agree: true,
    });
  });

  it("the untitled and titled single-select enums: the default, or the option the person picks", async () => {
    const params = form({
      color: { type: "string", enum: ["Red", "Green", "Blue"], default: "Red" },
      hex: {
        type: "string",
        oneOf: [
          { const: "#FF0000", title: "Red" },
          { const: "#00FF00", title: "Green" },
          { const: "#0000FF", title: "Blue" },
        ],
        default: "#FF0000",
      },
    });
    const trip = await expectAccepted(params, confirms, { color: "Red", hex: "#FF0000" });
    expect(trip.block?.questions[1]?.options.map((option) => option.label)).toEqual(["Red", "Green", "Blue"]);
    await expectAccepted(params, set({ color: "Blue", hex: "#00FF00" }), { color: "Blue", hex: "#00FF00" });
  });

  it("the legacy enum with enumNames shows the names and sends the values", async () => {
    const params = form({
      size: { type: "string", enum: ["s", "m", "l"], enumNames: ["Small", "Medium", "Large"], default: "m" },
    });
    const trip = await expectAccepted(params, set({ size: "l" }), { size: "l" });
    expect(trip.block?.questions[0]?.options.map((option) => option.label)).toEqual([
      "Small",
      "Medium",
      "Large",
    ]);
    expect(trip.outcome?.summary).toContain("→ Large");
  });

  it("the untitled and titled multi-select enums: their defaults, or what the person ticks", async () => {
    const params = form({
      colors: {
        type: "array",
        minItems: 1,
        maxItems: 2,
        items: { type: "string", enum: ["Red", "Green", "Blue"] },
        default: ["Red", "Green"],
      },
      hexes: {
        type: "array",
        minItems: 1,
        maxItems: 2,
        items: {
          anyOf: [
            { const: "#FF0000", title: "Red" },
            { const: "#00FF00", title: "Green" },
            { const: "#0000FF", title: "Blue" },
          ],
        },
        default: ["#FF0000", "#00FF00"],
      },
    });
    await expectAccepted(params, confirms, { colors: ["Red", "Green"], hexes: ["#FF0000", "#00FF00"] });
    await expectAccepted(
      params,
      async (block) => {
        block.toggle("colors", "Red");
        block.toggle("hexes", "#00FF00");
        block.toggle("hexes", "#0000FF");
        await block.submit();
      },
      { colors: ["Green"], hexes: ["#FF0000", "#0000FF"] },
    );
  });

  it("a skip declines and a form left unanswered cancels", async () => {
    const params = form({ color: { type: "string", enum: ["Red", "Green"], default: "Red" } });
    const declined = await mcp.elicit(params, (block) => block.skip());
    expect(declined.received).toEqual({ action: "decline" });
    expect(declined.outcome?.skipped).toBe(true);
    const cancelled = await mcp.elicit(params, (block) => block.dismiss());
    expect(cancelled.received).toEqual({ action: "cancel" });
    expect(cancelled.outcome).toBeUndefined();
  });
});

describe("what MCP allows and Prepick used to refuse or get wrong", () => {
  it("an optional choice without a default starts unpicked and sends nothing when untouched", async () => {
    const params = form({
      color: { type: "string", enum: ["Red", "Green"] },
      hex: { type: "string", oneOf: [{ const: "#FF0000", title: "Red" }] },
      tags: { type: "array", items: { type: "string", enum: ["a", "b"] } },
    });
    const trip = await expectAccepted(params, confirms, {});
    expect(trip.block?.questions.map((question) => [question.value, question.required])).toEqual([
      [[], false],
      [[], false],
      [[], false],
    ]);
    await expectAccepted(params, set({ color: "Green", tags: ["b"] }), { color: "Green", tags: ["b"] });
  });

  it("a required choice without a default must be picked, and is sent once it is", async () => {
    const params = form({ color: { type: "string", enum: ["Red", "Green"] } }, ["color"]);
    const refused = await mcp.elicit(params, confirms);
    expect(refused.block?.questions[0]?.issues.map((issue) => issue.rule)).toEqual(["required"]);
    expect(refused.received).toEqual({ action: "cancel" });
    await expectAccepted(params, set({ color: "Red" }), { color: "Red" });
  });

  it("a multi-select whose default is [] sends [] when untouched, as does a required one", async () => {
    const params = form(
      {
        tags: { type: "array", items: { type: "string", enum: ["a", "b"] }, default: [] },
        must: { type: "array", items: { type: "string", enum: ["a", "b"] } },
      },
      ["must"],
    );
    await expectAccepted(params, confirms, { tags: [], must: [] });
  });

  it('an enum value "" can be chosen, shown with a label, and is sent as ""', async () => {
    const params = form({
      plan: { type: "string", enum: ["", "pro"], default: "pro" },
      tier: {
        type: "string",
        oneOf: [
          { const: "", title: "No tier" },
          { const: "gold", title: "Gold" },
        ],
      },
      extras: { type: "array", items: { type: "string", enum: ["", "~x"] }, default: [""] },
    });
    const trip = await mcp.elicit(params, async (block) => {
      const [plan, tier] = block.questions;
      plan?.setValue(plan.options[0]?.value);
      tier?.setValue(tier.options[0]?.value);
      block.toggle("extras", block.questions[2]?.options[1]?.value ?? "");
      await block.submit();
    });
    expect(trip.block?.questions.map((question) => question.options.map((option) => option.label))).toEqual([
      ["(empty)", "pro"],
      ["No tier", "Gold"],
      ["(empty)", "~x"],
    ]);
    expect(trip.received).toEqual({ action: "accept", content: { plan: "", tier: "", extras: ["", "~x"] } });
    expect(trip.outcome?.summary).toContain("→ (empty)");
  });

  it("properties named constructor, toString, prototype, '' or ~x round-trip by their names", async () => {
    // `__proto__` cannot travel this way: the SDK's own request parsing drops it before the
    // client's handler runs (the adapter maps it all the same: see the adapters' unit tests).
    const names = ["constructor", "toString", "hasOwnProperty", "prototype", "", "~x", "plain"];
    const properties: Properties = Object.fromEntries(
      names.map((name) => [name, { type: "string" as const, title: `Field ${name}` }]),
    );
    const typed = Object.fromEntries(names.map((name) => [name, `value of ${name}`]));
    const trip = await mcp.elicit(form(properties, names), set(typed));
    expect(trip.error).toBeUndefined();
    expect(trip.parsed.success && trip.parsed.request.questions.map((question) => question.id)).toEqual([
      "~constructor",
      "~toString",
      "~hasOwnProperty",
      "~prototype",
      "~",
      "~~x",
      "plain",
    ]);
    expect(trip.received?.action).toBe("accept");
    const content = trip.received?.content ?? {};
    expect(names.map((name) => [name, Object.hasOwn(content, name) ? content[name] : undefined])).toEqual(
      names.map((name) => [name, `value of ${name}`]),
    );
    expect(Object.keys(trip.outcome?.answers ?? {})).toHaveLength(names.length);
  });

  it("a server default that breaks its own schema is dropped, the question left unpicked", async () => {
    const params = form({
      seats: { type: "number", maximum: 3, default: 7 },
      color: { type: "string", enum: ["Red", "Green"], default: "Blue" },
      tags: { type: "array", items: { type: "string", enum: ["a", "b"] }, default: ["a", "z"] },
      short: { type: "string", maxLength: 2, default: "too long" },
      flag: { type: "boolean", default: true },
    });
    const trip = await expectAccepted(params, confirms, { flag: true });
    expect(trip.block?.questions.map((question) => question.value)).toEqual([[], [], [], [], ["true"]]);
  });

  it("an integer is a whole-number step: the form refuses a fraction, a whole number goes through", async () => {
    const params = form({ count: { type: "integer", minimum: 0.5, maximum: 9.5 } }, ["count"]);
    const refused = await mcp.elicit(params, set({ count: "2.5" }));
    expect(refused.block?.questions[0]).toMatchObject({ input: { min: 1, max: 9, step: 1 } });
    expect(refused.block?.questions[0]?.issues.map((issue) => issue.rule)).toEqual(["step"]);
    expect(refused.received).toEqual({ action: "cancel" });
    await expectAccepted(params, set({ count: "9" }), { count: 9 });
  });

  it("email and uri: what the SDK's ajv-formats refuses, the form refuses first", async () => {
    const params = form({
      contact: { type: "string", format: "email" },
      site: { type: "string", format: "uri" },
    });
    for (const [name, value, rule] of [
      ["contact", "jürgen@example.com", "email"],
      ["contact", "a..b@example.com", "email"],
      ["site", "https://例え.jp/パス", "url"],
      ["site", "javascript:alert(1)", "scheme"],
    ] as const) {
      const refused = await mcp.elicit(params, set({ [name]: value }));
      expect(
        refused.block?.questions.flatMap((question) => question.issues.map((issue) => issue.rule)),
      ).toEqual([rule]);
      expect(refused.received).toEqual({ action: "cancel" });
    }
    await expectAccepted(
      params,
      set({ contact: "juergen@example.com", site: "https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9" }),
      { contact: "juergen@example.com", site: "https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9" },
    );
    await expectAccepted(params, set({ site: "mailto:ada@example.com" }), { site: "mailto:ada@example.com" });
  });

  it("maxItems: a third pick is refused in the form with its own message, two go through", async () => {
    const params = form({
      colors: { type: "array", maxItems: 2, items: { type: "string", enum: ["Red", "Green", "Blue"] } },
    });
    const refused = await mcp.elicit(params, set({ colors: ["Red", "Green", "Blue"] }));
    expect(refused.block?.questions[0]?.issues.map((issue) => issue.rule)).toEqual(["max-items"]);
    expect(refused.block?.questions[0]?.error).toBe("Pick at most 2.");
    expect(refused.received).toEqual({ action: "cancel" });
    await expectAccepted(params, set({ colors: ["Red", "Blue"] }), { colors: ["Red", "Blue"] });
  });

  it("minItems: clearing every box is refused in the form; untouched without a default sends nothing", async () => {
    const params = form({
      colors: {
        type: "array",
        minItems: 1,
        items: { type: "string", enum: ["Red", "Green"] },
        default: ["Red"],
      },
      extras: { type: "array", minItems: 2, items: { type: "string", enum: ["a", "b", "c"] } },
    });
    const cleared = await mcp.elicit(params, set({ colors: [] }));
    expect(cleared.block?.questions[0]?.issues.map((issue) => issue.rule)).toEqual(["min-items"]);
    expect(cleared.received).toEqual({ action: "cancel" });
    const one = await mcp.elicit(params, set({ extras: ["a"] }));
    expect(one.block?.questions[1]?.issues.map((issue) => issue.rule)).toEqual(["min-items"]);
    await expectAccepted(params, confirms, { colors: ["Red"] });
    await expectAccepted(params, set({ extras: ["a", "c"] }), { colors: ["Red"], extras: ["a", "c"] });
  });

  it("a required multi-select with minItems and no default must be picked from", async () => {
    const params = form(
      { colors: { type: "array", minItems: 1, items: { type: "string", enum: ["Red", "Green"] } } },
      ["colors"],
    );
    const refused = await mcp.elicit(params, confirms);
    expect(refused.block?.questions[0]?.issues.map((issue) => issue.rule)).toEqual(["required"]);
    expect(refused.received).toEqual({ action: "cancel" });
    await expectAccepted(params, set({ colors: ["Green"] }), { colors: ["Green"] });
  });

  it("a multi-select default that breaks minItems or maxItems is dropped", async () => {
    const params = form({
      few: { type: "array", minItems: 1, items: { type: "string", enum: ["a", "b"] }, default: [] },
      many: { type: "array", maxItems: 1, items: { type: "string", enum: ["a", "b"] }, default: ["a", "b"] },
    });
    const trip = await expectAccepted(params, confirms, {});
    expect(trip.block?.questions.map((question) => question.defaults)).toEqual([[], []]);
  });
  it("URL mode, which the SDK's params type carries, is refused at run time: the client cancels", async () => {
    const trip = await mcp.elicit(
      {
        mode: "url",
        message: "Connect your account.",
        url: "https://example.com/connect",
        elicitationId: "e-1",
      },
      () => undefined,
    );
    expect(trip.parsed.success ? [] : trip.parsed.issues.map((issue) => issue.path)).toEqual(["mode"]);
    expect(trip.block).toBeUndefined();
    expect(trip.received).toEqual({ action: "cancel" });
  });
});

describe("date-time: a local date and time, sent as RFC 3339 with the person's offset", () => {
  let zone: string | undefined;
  beforeEach(() => {
    zone = process.env.TZ;
    process.env.TZ = "Europe/Berlin";
  });
  afterEach(() => {
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  });

  it('refuses "tomorrow at 10" in the form and sends a picked time with its offset', async () => {
    expect(new Date(2026, 4, 4).getTimezoneOffset()).toBe(-120);
    const params = form({ when: { type: "string", format: "date-time", title: "When?" } }, ["when"]);
    const refused = await mcp.elicit(params, set({ when: "tomorrow at 10" }));
    expect(refused.block?.questions[0]).toMatchObject({ input: { type: "datetime", required: true } });
    expect(refused.block?.questions[0]?.issues.map((issue) => issue.rule)).toEqual(["datetime"]);
    expect(refused.received).toEqual({ action: "cancel" });
    const trip = await expectAccepted(params, set({ when: "2026-05-04T09:30" }), {
      when: "2026-05-04T09:30:00+02:00",
    });
    expect(trip.outcome?.answers).toEqual({ when: ["2026-05-04T09:30"] });
    await expectAccepted(params, set({ when: "2026-12-24T18:05" }), { when: "2026-12-24T18:05:00+01:00" });
  });

  it("shows the server's default in local time, and drops one a minute cannot show", async () => {
    const params = form({
      start: { type: "string", format: "date-time", default: "2026-05-04T07:30:00Z" },
      odd: { type: "string", format: "date-time", default: "2026-05-04T07:30:15Z" },
      bad: { type: "string", format: "date-time", default: "tomorrow" },
    });
    const trip = await expectAccepted(params, confirms, { start: "2026-05-04T09:30:00+02:00" });
    expect(trip.block?.questions.map((question) => question.value)).toEqual([["2026-05-04T09:30"], [], []]);
  });
});
