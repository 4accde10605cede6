import type { LanguageModelV4Prompt } from "@ai-sdk/provider";
import { wrapLanguageModel } from "ai";
import { EDITED_HEADING, type Question } from "prepick/core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createScriptedModel } from "./model/scripted-model";
import type { PrepickServer } from "./server";
import { call, chat, follow, frameOf, kinds, startServer, tempDataDir } from "./testing/harness";
import { editedPurges, editor, operator } from "./testing/test-agents";

let server: PrepickServer;
const prompts: LanguageModelV4Prompt[] = [];

beforeAll(async () => {
  // The scripted model, with every prompt it is sent kept: what the model reads next is asserted.
  const model = wrapLanguageModel({
    model: createScriptedModel(),
    middleware: {
      specificationVersion: "v4",
      transformParams: async ({ params }) => {
        prompts.push(params.prompt);
        return params;
      },
    },
  });
  server = await startServer({ agents: [editor, operator], model });
}, 60_000);
afterAll(async () => {
  await server.close();
}, 60_000);

/** A run of the editor parked on its purge, with the approval-request frame. */
async function parkedPurge(actor: string) {
  const run = await chat(server, actor, "Please purge the cache", { agent: "editor" });
  const request = frameOf(run.frames, "approval-request");
  expect(run.frames.at(-1)?.frame.kind).toBe("run-parked");
  return { ...run, request, id: request?.id ?? "", seq: run.frames.at(-1)?.seq ?? 0 };
}

/** The purge's tool result in the prompt of the model call that followed it (the test's one purge). */
function resultInPrompt() {
  for (const prompt of prompts.toReversed()) {
    for (const message of prompt) {
      if (message.role !== "tool") continue;
      const part = message.content.find(
        (item) => item.type === "tool-result" && item.toolName === "purge_cache",
      );
      if (part?.type === "tool-result") return { prompt, part };
    }
  }
  throw new Error("no prompt held the purge's result");
}

afterEach(() => {
  prompts.length = 0;
});

describe("an editable tool awaiting approval", () => {
  it("posts its fields as questions pre-picked with the model's proposal, in the frame and the inbox", async () => {
    const run = await parkedPurge("ada");
    expect(run.request?.input).toEqual({ cache: "pages", hours: 24, region: "eu" });
    const questions = run.request?.questions as Question[];
    expect(questions.map((question) => [question.id, question.prompt, question.defaults])).toEqual([
      ["cache", "Which cache should I purge?", ["pages"]],
      ["hours", "How far back, in hours?", ["24"]],
      ["note", "A note for the log", []],
      ["region", "Which region?", ["eu"]],
    ]);
    expect(questions[1]?.input).toEqual({ type: "number", min: 1, max: 72, step: 1 });
    const inbox = await call(server, "GET", "/agent/approvals", "ada");
    const [waiting] = inbox.body.approvals as { id: string; posted: { questions?: Question[] } }[];
    expect(waiting?.id).toBe(run.id);
    expect(waiting?.posted.questions).toEqual(questions);
    const listed = await call(server, "GET", "/agent/agents", "ada");
    const [agent] = listed.body.agents as { tools: { name: string; editable?: string[] }[] }[];
    expect(agent?.tools).toEqual([
      expect.objectContaining({
        name: "purge_cache",
        needsApproval: true,
        editable: ["cache", "hours", "note", "region"],
      }),
    ]);
  });

  it("approved as proposed: runs the proposal, records edited [] and tells the model nothing more", async () => {
    const run = await parkedPurge("bea");
    const before = editedPurges.length;
    const approved = await call(server, "POST", "/agent/tool-call/approve", "bea", { toolCallId: run.id });
    expect(approved.status).toBe(200);
    expect(approved.body).toEqual({
      toolCallId: run.id,
      status: "approved",
      output: { input: { cache: "pages", hours: 24, region: "eu" }, edited: [] },
    });
    const rest = await follow(server, "bea", run.runId, run.seq);
    expect(kinds(rest).slice(0, 2)).toEqual(["tool-approved", "tool-output"]);
    expect(frameOf(rest, "tool-approved")).toEqual({
      kind: "tool-approved",
      id: run.id,
      input: { cache: "pages", hours: 24, region: "eu" },
      edited: [],
    });
    expect(editedPurges.slice(before).map((purge) => purge.input)).toEqual([
      { cache: "pages", hours: 24, region: "eu" },
    ]);
    const row = await server.store.toolCalls.get(run.id);
    expect(row).toMatchObject({ status: "completed", input: { cache: "pages", hours: 24 }, edited: [] });
    expect(row?.proposedInput).toBeUndefined();
    expect(resultInPrompt().part.output).toEqual({ type: "json", value: { purged: "pages", hours: 24 } });
  });

  it("approved with edits: runs the edited input once and tells the model what it proposed, what ran and what changed", async () => {
    const run = await parkedPurge("cy");
    const before = editedPurges.length;
    const approved = await call(server, "POST", "/agent/tool-call/approve", "cy", {
      toolCallId: run.id,
      answers: { cache: ["images"], hours: ["06"], region: ["eu"] },
    });
    expect(approved.status).toBe(200);
    const ran = { cache: "images", hours: 6, region: "eu" };
    expect(approved.body.output).toEqual({ input: ran, edited: ["cache", "hours"] });
    const rest = await follow(server, "cy", run.runId, run.seq);
    expect(frameOf(rest, "tool-approved")).toEqual({
      kind: "tool-approved",
      id: run.id,
      input: ran,
      edited: ["cache", "hours"],
    });
    expect(frameOf(rest, "tool-output")?.output).toEqual({ purged: "images", hours: 6 });
    expect(rest.at(-1)?.frame).toEqual({ kind: "run-finish", status: "completed" });
    expect(editedPurges.slice(before)).toEqual([{ input: ran, key: `${run.runId}:${run.id}` }]);

    // The row: the input that ran, beside it what the model proposed and which fields changed.
    const row = await server.store.toolCalls.get(run.id);
    expect(row).toMatchObject({
      status: "completed",
      input: ran,
      proposedInput: { cache: "pages", hours: 24, region: "eu" },
      edited: ["cache", "hours"],
      output: { purged: "images", hours: 6 },
    });

    // The model's next prompt: its own call as it wrote it, and a result that says what ran
    // instead beside the proposal (the schema's defaults filled in, as the tool would have run it).
    const { prompt, part } = resultInPrompt();
    const proposedCall = prompt
      .flatMap((message) => (message.role === "assistant" ? message.content : []))
      .find((item) => item.type === "tool-call" && item.toolName === "purge_cache");
    expect(proposedCall?.type === "tool-call" && proposedCall.input).toEqual({ cache: "pages" });
    expect(part.output).toEqual({
      type: "json",
      value: {
        edits: `${EDITED_HEADING}\nWhich cache should I purge? → Images (you proposed Pages)\nHow far back, in hours? → 6 (you proposed 24)`,
        proposedInput: { cache: "pages", hours: 24, region: "eu" },
        input: ran,
        edited: ["Which cache should I purge?", "How far back, in hours?"],
        output: { purged: "images", hours: 6 },
      },
    });
    // Later turns read the same result from the stored history.
    const stored = (await server.store.runs.get(run.runId))?.modelMessages ?? [];
    expect(JSON.stringify(stored)).toContain("(you proposed 24)");
  });

  it("rejected with a reason: runs nothing, and edits sent with a rejection are not read", async () => {
    const run = await parkedPurge("dee");
    const before = editedPurges.length;
    const rejected = await call(server, "POST", "/agent/tool-call/reject", "dee", {
      toolCallId: run.id,
      reason: "wrong cache",
      answers: { hours: ["6"] },
    });
    expect(rejected.body).toEqual({
      toolCallId: run.id,
      status: "rejected",
      output: { reason: "wrong cache" },
    });
    const rest = await follow(server, "dee", run.runId, run.seq);
    expect(frameOf(rest, "tool-denied")).toEqual({ kind: "tool-denied", id: run.id, reason: "wrong cache" });
    expect(kinds(rest)).not.toContain("tool-approved");
    expect(editedPurges.length).toBe(before);
    const row = await server.store.toolCalls.get(run.id);
    expect(row).toMatchObject({ status: "rejected", input: { cache: "pages", hours: 24, region: "eu" } });
    expect(row?.edited).toBeUndefined();
    expect(resultInPrompt().part.output).toEqual({ type: "execution-denied", reason: "wrong cache" });
  });
});

describe("edits the rules refuse", () => {
  it("answers 400 naming the field, the rule and the value, and leaves the call waiting", async () => {
    const run = await parkedPurge("eve");
    const refusals: [unknown, { questionId: string; rule: string; value?: string; message: string }[]][] = [
      [
        { hours: ["100"] },
        [{ questionId: "hours", rule: "max", value: "100", message: 'answers["hours"] must be at most 72' }],
      ],
      [
        { hours: ["2.5"] },
        [
          {
            questionId: "hours",
            rule: "step",
            value: "2.5",
            message: 'answers["hours"] must be a whole number',
          },
        ],
      ],
      [
        { cache: ["disks"] },
        [
          {
            questionId: "cache",
            rule: "option",
            value: "disks",
            message: 'answers["cache"] must be one of "pages", "images", "all"',
          },
        ],
      ],
      [{ cache: [] }, [{ questionId: "cache", rule: "required", message: 'answers["cache"] is required' }]],
      [
        { colour: ["red"] },
        [
          {
            questionId: "colour",
            rule: "unknown-question",
            message: 'answers["colour"] is not one of this set\'s questions',
          },
        ],
      ],
      [
        { hours: 6 },
        [
          {
            questionId: "hours",
            rule: "shape",
            message: 'answers["hours"] must be an array of strings, such as ["yes"]',
          },
        ],
      ],
      [
        { region: ["moon"] },
        [
          {
            questionId: "region",
            rule: "schema",
            value: "moon",
            message:
              'answers["region"] is refused by the tool\'s input schema: there are no caches on the moon',
          },
        ],
      ],
    ];
    for (const [answers, issues] of refusals) {
      const refused = await call(server, "POST", "/agent/tool-call/approve", "eve", {
        toolCallId: run.id,
        answers,
      });
      expect(refused.status, JSON.stringify(answers)).toBe(400);
      expect(refused.body.issues).toEqual(issues);
      expect(refused.body.error).toBe(
        `The edits were refused: ${issues.map((issue) => issue.message).join("; ")}`,
      );
    }
    expect((await server.store.toolCalls.get(run.id))?.status).toBe("pending_approval");
    const journal = await call(server, "GET", `/agent/runs/${run.runId}/checkpoints`, "eve");
    expect(journal.body.checkpoints).not.toContain(`signal:tool:${run.runId}:${run.id}`);
    // The call still settles once the edits pass. An emptied field with a default runs with it:
    // the input recorded is what runs, and only what differs from the proposal counts as edited.
    const approved = await call(server, "POST", "/agent/tool-call/approve", "eve", {
      toolCallId: run.id,
      answers: { note: ["by hand"], hours: [] },
    });
    expect(approved.body.output).toEqual({
      input: { cache: "pages", hours: 24, region: "eu", note: "by hand" },
      edited: ["note"],
    });
    await follow(server, "eve", run.runId, run.seq);
  });

  it("refuses answers to a tool whose input is not editable", async () => {
    const run = await chat(server, "fay", "Please purge the cache", { agent: "operator" });
    const id = frameOf(run.frames, "approval-request")?.id;
    expect(frameOf(run.frames, "approval-request")?.questions).toBeUndefined();
    const refused = await call(server, "POST", "/agent/tool-call/approve", "fay", {
      toolCallId: id,
      answers: { cache: ["pages"] },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe(
      `${id} is the tool "purge_cache", whose input is not editable; approve it without answers`,
    );
    expect((await server.store.toolCalls.get(id ?? ""))?.status).toBe("pending_approval");
  });
});

describe("a replay after a restart", () => {
  it("runs the tool once, with the edited input journaled with the signal", { timeout: 60_000 }, async () => {
    const dir = await tempDataDir();
    try {
      const first = await startServer({ agents: [editor], dataDir: dir.path });
      const run = await chat(first, "gil", "Please purge the cache", { agent: "editor" });
      const id = frameOf(run.frames, "approval-request")?.id ?? "";
      await first.close();
      const before = editedPurges.length;
      const second = await startServer({ agents: [editor], dataDir: dir.path });
      try {
        const approved = await call(second, "POST", "/agent/tool-call/approve", "gil", {
          toolCallId: id,
          answers: { hours: ["12"] },
        });
        expect(approved.status).toBe(200);
        const rest = await follow(second, "gil", run.runId, run.frames.at(-1)?.seq ?? 0);
        expect(frameOf(rest, "tool-output")?.output).toEqual({ purged: "pages", hours: 12 });
        const journal = await second.store.checkpoints.list(run.runId);
        expect(journal.find((entry) => entry.name === `signal:tool:${run.runId}:${id}`)?.result).toEqual({
          status: "approved",
          output: { input: { cache: "pages", hours: 12, region: "eu" }, edited: ["hours"] },
        });
        expect(editedPurges.slice(before).map((purge) => purge.input)).toEqual([
          { cache: "pages", hours: 12, region: "eu" },
        ]);
      } finally {
        await second.close();
      }
    } finally {
      await dir.remove();
    }
  });
});
