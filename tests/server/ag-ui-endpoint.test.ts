import { join } from "node:path";
import { type BaseEvent, EventType } from "@ag-ui/client";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { AgentConfig } from "../../server/agents/types";
import type { PrepickServer } from "../../server/server";
import { call, startServer, tempStore } from "../../server/testing/harness";
import { operator, refactorer } from "../../server/testing/test-agents";
import { specIntake } from "../../src/core/spec-examples";
import {
  finished,
  httpAgent,
  interruptsOf,
  ourRunId,
  runAgent as run,
  textOf as text,
} from "../support/ag-ui-agent";
import { seededPgliteFolder } from "../support/pglite-folder";
import { type ServerProcess, startServer as startProcess } from "../support/server-process";
import { removeTempFolders, tempFolder } from "../support/temp-folder";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serve(agents: AgentConfig[], dataDir?: string): Promise<PrepickServer> {
  const server = await startServer({ agents, stopGraceMs: 200, ...(dataDir ? { dataDir } : {}) });
  cleanups.push(() => server.close());
  return server;
}

async function pending(server: PrepickServer, actor: string): Promise<string[]> {
  const inbox = await call(server, "GET", "/agent/approvals", actor);
  return (inbox.body.approvals as { id: string }[]).map((row) => row.id);
}

async function startIntake(server: PrepickServer, threadId: string) {
  const agent = httpAgent(server, "ada", threadId, "refactorer");
  agent.addMessage({ id: "m-1", role: "user", content: "Refactor the parser" });
  const first = await run(agent);
  return { agent, first, runId: ourRunId(first.events) };
}

describe("POST /agent/ag-ui through @ag-ui/client's HttpAgent", { timeout: 120_000 }, () => {
  it("ends a run parked on its intake with an interrupt, and resumes it to success", async () => {
    const server = await serve([refactorer]);
    const { agent, first, runId } = await startIntake(server, "t-intake");
    expect(first.error).toBeUndefined();
    expect(first.types).toEqual([EventType.RUN_STARTED, EventType.RUN_FINISHED]);
    const [interrupt, ...others] = interruptsOf(first.events);
    expect(others).toEqual([]);
    expect(interrupt).toMatchObject({
      id: `intake-${runId}`,
      reason: "input_required",
      message: specIntake.preamble,
      responseSchema: {
        type: "object",
        properties: {
          scope: {
            type: "string",
            title: "How much should I cover?",
            default: "module",
            oneOf: [
              { const: "file", title: "This file" },
              { const: "module", title: "The whole module" },
              { const: "importers", title: "Everything that imports it" },
            ],
          },
          tests: {
            type: "array",
            default: ["unit"],
            items: { anyOf: [{ const: "unit" }, { const: "e2e" }] },
          },
        },
        required: ["scope"],
      },
    });
    expect(interrupt?.metadata).toEqual({
      prepick: { request: { preamble: specIntake.preamble, questions: expect.any(Array), source: "intake" } },
    });
    const carried = (interrupt?.metadata?.prepick ?? {}) as {
      request: { questions: { id: string; options?: unknown[] }[] };
    };
    expect(carried.request.questions.map((question) => question.id)).toEqual(["scope", "tests"]);
    expect(carried.request.questions[0]?.options).toEqual(specIntake.questions[0]?.options);
    expect(agent.pendingInterrupts.map((open) => open.id)).toEqual([`intake-${runId}`]);

    const second = await run(agent, {
      resume: [
        {
          interruptId: `intake-${runId}`,
          status: "resolved",
          payload: { scope: "file", tests: ["unit", "e2e"] },
        },
      ],
    });
    expect(second.error).toBeUndefined();
    expect(second.types[0]).toBe(EventType.RUN_STARTED);
    expect(ourRunId(second.events)).toBe(runId);
    expect(second.types).toContain(EventType.TEXT_MESSAGE_START);
    expect(second.types).toContain(EventType.STEP_STARTED);
    expect(text(second.events)).not.toBe("");
    expect(finished(second.events)?.outcome).toEqual({ type: "success" });
    expect(second.types.at(-1)).toBe(EventType.RUN_FINISHED);
    // The question set travels only as the interrupt: no tool call, and no result, for it.
    expect(second.types).not.toContain(EventType.TOOL_CALL_RESULT);
    expect(agent.pendingInterrupts).toEqual([]);

    const row = await server.store.toolCalls.get(`intake-${runId}`);
    expect(row?.status).toBe("answered");
    expect(row?.output).toMatchObject({ answers: { scope: ["file"], tests: ["unit", "e2e"] } });
  });

  it("answers a malformed resume with RUN_ERROR naming the issue, and settles nothing", async () => {
    const server = await serve([refactorer]);
    const { agent, runId } = await startIntake(server, "t-bad");
    const intake = `intake-${runId}`;

    const refused = await run(agent, {
      resume: [{ interruptId: intake, status: "resolved", payload: { scope: "everything", tests: 3 } }],
    });
    expect(refused.types).toEqual([EventType.RUN_STARTED, EventType.RUN_ERROR]);
    const error = refused.events[1] as BaseEvent & { message: string; code: string };
    expect(error.code).toBe("refused");
    expect(error.message).toContain('answers["scope"] must be one of "file", "module", "importers"');
    expect(
      (error.metadata as { prepick: { issues: { questionId: string }[] } }).prepick.issues,
    ).toMatchObject([
      { questionId: "scope", rule: "option", value: "everything" },
      { questionId: "tests", rule: "option", value: "3" },
    ]);
    expect(await pending(server, "ada")).toEqual([intake]);
    expect((await server.store.toolCalls.get(intake))?.status).toBe("pending_approval");
    expect((await server.store.runs.get(runId))?.status).toBe("parked");

    // An entry naming an interrupt that is not this thread's refuses the whole resume: every entry
    // is checked before any is settled, so the valid skip beside it is not taken either.
    const unknown = await run(agent, {
      resume: [
        { interruptId: intake, status: "cancelled" },
        { interruptId: "intake-run-nobody", status: "cancelled" },
      ],
    });
    expect(unknown.types).toEqual([EventType.RUN_STARTED, EventType.RUN_ERROR]);
    expect(unknown.events[1]).toMatchObject({
      code: "not_found",
      message: "No interrupt intake-run-nobody is waiting on thread t-bad.",
    });
    expect(await pending(server, "ada")).toEqual([intake]);

    const fixed = await run(agent, { resume: [{ interruptId: intake, status: "cancelled" }] });
    expect(finished(fixed.events)?.outcome).toEqual({ type: "success" });
    const row = await server.store.toolCalls.get(intake);
    expect(row?.status).toBe("skipped");
    expect(row?.output).toMatchObject({ skipped: true });

    // Sent again, the same resume finds the interrupt settled: the 409 of the answer endpoint.
    const again = await run(agent, { resume: [{ interruptId: intake, status: "cancelled" }] });
    expect(again.types).toEqual([EventType.RUN_STARTED, EventType.RUN_ERROR]);
    expect((again.events[1] as { code?: string }).code).toBe("already_settled");
  });

  it("resumes a park after the server restarted on the same folder", async () => {
    const dir = await tempStore();
    cleanups.push(dir.remove);
    const first = await serve([refactorer], dir.path);
    const { agent, runId } = await startIntake(first, "t-restart");
    const messages = agent.messages;
    await first.close();

    const second = await serve([refactorer], dir.path);
    const again = httpAgent(second, "ada", "t-restart", "refactorer");
    again.setMessages(messages);
    const resumed = await run(again, { resume: [{ interruptId: `intake-${runId}`, status: "resolved" }] });
    expect(resumed.error).toBeUndefined();
    expect(ourRunId(resumed.events)).toBe(runId);
    expect(text(resumed.events)).not.toBe("");
    expect(finished(resumed.events)?.outcome).toEqual({ type: "success" });
    const row = await second.store.toolCalls.get(`intake-${runId}`);
    expect(row?.output).toMatchObject({
      answers: { scope: ["module"], tests: ["unit"] },
      defaulted: ["scope", "tests"],
    });
  });

  it("does not let another actor resume, or even see, the thread", async () => {
    const server = await serve([refactorer]);
    const { agent, runId } = await startIntake(server, "t-owned");
    const intruder = httpAgent(server, "mallory", "t-owned", "refactorer");
    intruder.setMessages(agent.messages);
    const attempt = await run(intruder, { resume: [{ interruptId: `intake-${runId}`, status: "resolved" }] });
    expect(attempt.events).toEqual([]);
    expect(attempt.error?.message).toContain("404");
    expect(await pending(server, "ada")).toEqual([`intake-${runId}`]);
    expect((await server.store.runs.get(runId))?.status).toBe("parked");
  });

  it("streams a tool call waiting for approval, interrupts on it, and runs it once approved", async () => {
    const server = await serve([operator]);
    const agent = httpAgent(server, "ada", "t-approve", "operator");
    agent.addMessage({ id: "m-1", role: "user", content: "Please purge the images cache" });
    const first = await run(agent);
    const start = first.events.find((event) => event.type === EventType.TOOL_CALL_START) as
      | (BaseEvent & { toolCallId: string; toolCallName: string })
      | undefined;
    expect(start?.toolCallName).toBe("purge_cache");
    expect(interruptsOf(first.events)).toEqual([
      expect.objectContaining({
        id: start?.toolCallId,
        reason: "tool_approval",
        toolCallId: start?.toolCallId,
      }),
    ]);
    // What the tool does travels with its interrupt, for the approval card to say.
    const carried = interruptsOf(first.events)[0]?.metadata?.prepick as { description?: string } | undefined;
    expect(carried?.description).toBe(
      operator.tools?.find((tool) => tool.name === "purge_cache")?.description,
    );
    expect(carried?.description).toBeTruthy();
    expect(interruptsOf(first.events)[0]?.responseSchema).toBeUndefined();

    const second = await run(agent, {
      resume: [{ interruptId: start?.toolCallId ?? "", status: "resolved", payload: { approved: true } }],
    });
    expect(second.error).toBeUndefined();
    const result = second.events.find((event) => event.type === EventType.TOOL_CALL_RESULT) as
      | (BaseEvent & { toolCallId: string; content: string })
      | undefined;
    expect(result?.toolCallId).toBe(start?.toolCallId);
    expect(JSON.parse(result?.content ?? "null")).toEqual({ purged: true });
    expect(finished(second.events)?.outcome).toEqual({ type: "success" });
    expect((await server.store.toolCalls.get(start?.toolCallId ?? ""))?.status).toBe("completed");
  });

  it("rejects a tool on a cancelled entry, with the reason its metadata carries", async () => {
    const server = await serve([operator]);
    const agent = httpAgent(server, "ada", "t-reject", "operator");
    agent.addMessage({ id: "m-1", role: "user", content: "Please purge the images cache" });
    const [interrupt] = interruptsOf((await run(agent)).events);
    const id = interrupt?.id ?? "";
    // The reference client drops a cancelled entry's payload; its metadata travels.
    const second = await run(agent, {
      resume: [
        { interruptId: id, status: "cancelled", metadata: { prepick: { reason: "Not during the sale" } } },
      ],
    });
    expect(second.error).toBeUndefined();
    const result = second.events.find((event) => event.type === EventType.TOOL_CALL_RESULT) as
      | (BaseEvent & { content: string })
      | undefined;
    expect(JSON.parse(result?.content ?? "null")).toEqual({ denied: true, reason: "Not during the sale" });
    expect(finished(second.events)?.outcome).toEqual({ type: "success" });
    expect((await server.store.toolCalls.get(id))?.status).toBe("rejected");
  });

  it("refuses a body that is not a RunAgentInput with a 400 naming the field and the value", async () => {
    const server = await serve([refactorer]);
    const refused = await call(server, "POST", "/agent/ag-ui", "ada", {
      threadId: "t-shape",
      runId: "r-1",
      messages: [{ id: "m-1", role: "user", content: "hi" }],
      resume: [{ interruptId: "x", status: "done" }],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.path).toBe("resume[0].status");
    expect(String(refused.body.error)).toMatch(
      /^resume\[0\]\.status is refused: .*"resolved".*, not "done"$/,
    );

    const noMessage = await call(server, "POST", "/agent/ag-ui", "ada", {
      threadId: "t-shape",
      runId: "r-1",
      messages: [],
    });
    expect(noMessage.status).toBe(400);
    expect(noMessage.body.path).toBe("messages");
    expect(await server.store.threads.get("t-shape")).toBeUndefined();
  });
});

describe("POST /agent/ag-ui on the server as npm start runs it", { timeout: 400_000 }, () => {
  const processes: ServerProcess[] = [];
  afterEach(async () => {
    await Promise.all(processes.splice(0).map((started) => started.kill()));
  });
  afterAll(() => removeTempFolders());

  it("resumes an interrupt in a new process after the first was killed", async () => {
    const dataDir = await seededPgliteFolder(join(tempFolder("prepick-ag-ui-"), "store"));
    const first = await startProcess({ env: { PREPICK_DATA_DIR: dataDir }, timeoutMs: 120_000 });
    processes.push(first);
    const agent = httpAgent(first, "ada", "t-killed", "refactorer");
    agent.addMessage({ id: "m-1", role: "user", content: "Refactor the parser" });
    const parked = await run(agent);
    const [intake] = interruptsOf(parked.events);
    expect(intake?.id).toBe(`intake-${ourRunId(parked.events)}`);
    await first.kill("SIGKILL");

    const second = await startProcess({ env: { PREPICK_DATA_DIR: dataDir }, timeoutMs: 120_000 });
    processes.push(second);
    const again = httpAgent(second, "ada", "t-killed", "refactorer");
    again.setMessages(agent.messages);
    const resumed = await run(again, {
      resume: [{ interruptId: intake?.id ?? "", status: "resolved", payload: { scope: "file" } }],
    });
    expect(resumed.error).toBeUndefined();
    expect(text(resumed.events)).not.toBe("");
    expect(finished(resumed.events)?.outcome).toEqual({ type: "success" });
    const thread = await fetch(`${second.url}/agent/threads/t-killed`, { headers: { "x-actor-id": "ada" } });
    const { messages } = (await thread.json()) as {
      messages: { frames?: { frame: { kind: string; output?: unknown } }[] }[];
    };
    const output = messages[1]?.frames?.find(({ frame }) => frame.kind === "tool-output")?.frame.output;
    expect(output).toMatchObject({ answers: { scope: ["file"] }, skipped: false });
  });
});
