import { type BaseEvent, EventType } from "@ag-ui/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrepickServer } from "../../server/server";
import { call, startServer } from "../../server/testing/harness";
import { editedPurges, editor, operator } from "../../server/testing/test-agents";
import { finished, httpAgent, interruptsOf, runAgent } from "../support/ag-ui-agent";

let server: PrepickServer;

beforeAll(async () => {
  server = await startServer({ agents: [editor, operator], stopGraceMs: 200 });
}, 60_000);
afterAll(async () => {
  await server.close();
}, 60_000);

/** A thread of the editor parked on its editable purge, through the reference client. */
async function parked(threadId: string) {
  const agent = httpAgent(server, "ada", threadId, "editor");
  agent.addMessage({ id: "m-1", role: "user", content: "Please purge the cache" });
  const first = await runAgent(agent);
  const [interrupt] = interruptsOf(first.events);
  if (!interrupt) throw new Error(`no interrupt: ${first.error?.message}`);
  return { agent, interrupt, id: interrupt.id };
}

function resultOf(events: readonly BaseEvent[]): unknown {
  const result = events.find((event) => event.type === EventType.TOOL_CALL_RESULT) as
    | (BaseEvent & { content: string })
    | undefined;
  return result ? JSON.parse(result.content) : undefined;
}

describe("an editable approval over AG-UI, through @ag-ui/client's HttpAgent", { timeout: 120_000 }, () => {
  it("interrupts asking for the editable fields, each default the model's proposal", async () => {
    const { interrupt } = await parked("t-schema");
    expect(interrupt.reason).toBe("tool_approval");
    expect(interrupt.responseSchema).toEqual({
      type: "object",
      properties: {
        cache: {
          type: "string",
          title: "Which cache should I purge?",
          oneOf: [
            { const: "pages", title: "Pages" },
            { const: "images", title: "Images" },
            { const: "all", title: "Everything" },
          ],
          default: "pages",
        },
        hours: { type: "number", title: "How far back, in hours?", minimum: 1, maximum: 72, default: 24 },
        note: { type: "string", title: "A note for the log", maxLength: 40 },
        region: { type: "string", title: "Which region?", default: "eu" },
      },
      required: ["cache"],
    });
    const carried = interrupt.metadata?.prepick as { questions?: { id: string }[]; input?: unknown };
    expect(carried.questions?.map((question) => question.id)).toEqual(["cache", "hours", "note", "region"]);
    expect(carried.input).toEqual({ cache: "pages", hours: 24, region: "eu" });
  });

  it("runs the input a resume edits as responseSchema describes it, fields left out keeping the proposal", async () => {
    const { agent, id } = await parked("t-values");
    const before = editedPurges.length;
    const second = await runAgent(agent, {
      resume: [{ interruptId: id, status: "resolved", payload: { approved: true, hours: 6 } }],
    });
    expect(second.error).toBeUndefined();
    expect(resultOf(second.events)).toEqual({ purged: "pages", hours: 6 });
    expect(finished(second.events)?.outcome).toEqual({ type: "success" });
    expect(editedPurges.slice(before).map((purge) => purge.input)).toEqual([
      { cache: "pages", hours: 6, region: "eu" },
    ]);
    expect(await server.store.toolCalls.get(id)).toMatchObject({ edited: ["hours"], input: { hours: 6 } });
  });

  it("reads LangGraph's HumanInTheLoopMiddleware decisions: edit with the whole arguments, and reject", async () => {
    const edited = await parked("t-langgraph-edit");
    const before = editedPurges.length;
    const second = await runAgent(edited.agent, {
      resume: [
        {
          interruptId: edited.id,
          status: "resolved",
          payload: {
            decisions: [
              {
                type: "edit",
                edited_action: { name: "purge_cache", args: { cache: "images", hours: 24, region: "eu" } },
              },
            ],
          },
        },
      ],
    });
    expect(second.error).toBeUndefined();
    expect(resultOf(second.events)).toEqual({ purged: "images", hours: 24 });
    expect(editedPurges.slice(before).map((purge) => purge.input)).toEqual([
      { cache: "images", hours: 24, region: "eu" },
    ]);
    expect((await server.store.toolCalls.get(edited.id))?.edited).toEqual(["cache"]);

    const rejected = await parked("t-langgraph-reject");
    const third = await runAgent(rejected.agent, {
      resume: [
        {
          interruptId: rejected.id,
          status: "resolved",
          payload: { decisions: [{ type: "reject", message: "Not the whole cache" }] },
        },
      ],
    });
    expect(resultOf(third.events)).toEqual({ denied: true, reason: "Not the whole cache" });
    expect((await server.store.toolCalls.get(rejected.id))?.status).toBe("rejected");
  });

  it("refuses edits the rules refuse with RUN_ERROR naming field, rule and value; the call still waits", async () => {
    const { agent, id } = await parked("t-refused");
    const cases: [unknown, string, unknown][] = [
      [
        { hours: 100 },
        "refused",
        [{ questionId: "hours", rule: "max", value: "100", message: 'answers["hours"] must be at most 72' }],
      ],
      [
        {
          decisions: [
            { type: "edit", edited_action: { name: "purge_cache", args: { cache: "pages", size: 3 } } },
          ],
        },
        "refused",
        [
          {
            questionId: "size",
            rule: "unknown-question",
            message: 'answers["size"] is not one of this set\'s questions',
          },
        ],
      ],
      [{ decisions: [{ type: "respond" }] }, "refused", undefined],
      [
        { decisions: [{ type: "edit", edited_action: { name: "other_tool", args: {} } }] },
        "refused",
        undefined,
      ],
    ];
    for (const [payload, code, issues] of cases) {
      const attempt = await runAgent(agent, { resume: [{ interruptId: id, status: "resolved", payload }] });
      const error = attempt.events.find((event) => event.type === EventType.RUN_ERROR) as
        | (BaseEvent & { code?: string; message: string; metadata?: { prepick?: { issues?: unknown } } })
        | undefined;
      expect(error?.code, JSON.stringify(payload)).toBe(code);
      expect(error?.metadata?.prepick?.issues).toEqual(issues);
    }
    expect((await server.store.toolCalls.get(id))?.status).toBe("pending_approval");
    const inbox = await call(server, "GET", "/agent/approvals", "ada");
    expect((inbox.body.approvals as { id: string }[]).map((row) => row.id)).toContain(id);
  });

  it("leaves a tool that is not editable asking nothing, and refuses a LangGraph edit of it", async () => {
    const agent = httpAgent(server, "bob", "t-plain", "operator");
    agent.addMessage({ id: "m-1", role: "user", content: "Please purge the cache" });
    const [interrupt] = interruptsOf((await runAgent(agent)).events);
    expect(interrupt?.responseSchema).toBeUndefined();
    const attempt = await runAgent(agent, {
      resume: [
        {
          interruptId: interrupt?.id ?? "",
          status: "resolved",
          payload: { decisions: [{ type: "edit", edited_action: { name: "purge_cache", args: {} } }] },
        },
      ],
    });
    const error = attempt.events.find((event) => event.type === EventType.RUN_ERROR) as
      | (BaseEvent & { message: string })
      | undefined;
    expect(error?.message).toContain("whose input is not editable");
  });
});
