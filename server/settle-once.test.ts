import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrepickServer } from "./server";
import { call, chat, follow, frameOf, kinds, startServer } from "./testing/harness";
import { operator, purges, refactorer } from "./testing/test-agents";

// A hundred people (or one impatient client) settle one call at the same moment, every way
// there is: exactly one settlement wins, and the run goes on from it once.
const CALLS = 100;

let server: PrepickServer;

beforeAll(async () => {
  server = await startServer({ agents: [refactorer, operator] });
});

afterAll(async () => {
  await server.close();
});

/**
 * Holds every request after it has read the pending row, until all of them have: each then passes
 * every check made before the settling statement, and only the statement's own guard (the row
 * still pending) can refuse all but one. Requests arrive one by one over HTTP, so without the hold
 * the first settlement commits before most requests read the row, and they are refused earlier.
 */
function holdReadsUntil(count: number): () => void {
  const toolCalls = server.store.toolCalls;
  const read = toolCalls.get;
  let reads = 0;
  let release = () => {};
  const all = new Promise<void>((resolve) => {
    release = resolve;
  });
  toolCalls.get = async (id) => {
    const row = await read.call(toolCalls, id);
    reads += 1;
    if (reads === count) release();
    await all;
    return row;
  };
  return () => {
    toolCalls.get = read;
  };
}

async function settleAtOnce(requests: { path: string; body: Record<string, unknown> }[]) {
  const restore = holdReadsUntil(requests.length);
  const responses = await Promise.all(
    requests.map((request) => call(server, "POST", request.path, "ada", request.body)),
  ).finally(restore);
  const statuses = responses.map((response) => response.status);
  expect(statuses.filter((status) => status === 200)).toHaveLength(1);
  expect(statuses.filter((status) => status === 409)).toHaveLength(requests.length - 1);
  return { winner: responses.find((response) => response.status === 200)?.body ?? {}, responses };
}

async function signalsOf(runId: string): Promise<string[]> {
  return (await server.store.checkpoints.list(runId))
    .map((entry) => entry.name)
    .filter((name) => name.startsWith("signal:"));
}

describe(`${CALLS} concurrent settlements of one call`, () => {
  it("answer and skip a question set: one wins, recorded once, and the run goes on from it", async () => {
    const run = await chat(server, "ada", "Refactor the parser");
    const toolCallId = `intake-${run.runId}`;
    const { winner, responses } = await settleAtOnce(
      Array.from({ length: CALLS }, (_, index) =>
        index % 3 === 0
          ? { path: "/agent/tool-call/skip", body: { toolCallId } }
          : {
              path: "/agent/tool-call/answer",
              body: { toolCallId, answers: { scope: [index % 2 === 0 ? "file" : "module"] } },
            },
      ),
    );
    // Every refusal reports the stored outcome: the winner's.
    for (const response of responses) expect(response.body.output).toEqual(winner.output);
    const rest = await follow(server, "ada", run.runId, run.frames.at(-1)?.seq ?? 0);
    expect(rest.filter(({ frame }) => frame.kind === "tool-output").map(({ frame }) => frame)).toEqual([
      { kind: "tool-output", id: toolCallId, output: winner.output },
    ]);
    expect(rest.at(-1)?.frame).toEqual({ kind: "run-finish", status: "completed" });
    expect(await signalsOf(run.runId)).toEqual([`signal:tool:${run.runId}:${toolCallId}`]);
  });

  it("approve and reject a tool: one wins, the tool runs at most once", async () => {
    purges.length = 0;
    const run = await chat(server, "ada", "Purge the cache", { agent: "operator" });
    const toolCallId = frameOf(run.frames, "approval-request")?.id ?? "";
    const { winner, responses } = await settleAtOnce(
      Array.from({ length: CALLS }, (_, index) =>
        index % 2 === 0
          ? { path: "/agent/tool-call/approve", body: { toolCallId } }
          : { path: "/agent/tool-call/reject", body: { toolCallId, reason: `no ${index}` } },
      ),
    );
    // Every refusal names the winner's decision (an approved call may have run since).
    const decided = winner.status === "approved" ? ["approved", "completed"] : ["rejected"];
    for (const response of responses.filter((each) => each.status === 409)) {
      expect(decided).toContain(response.body.status);
    }
    const rest = await follow(server, "ada", run.runId, run.frames.at(-1)?.seq ?? 0);
    const settling = rest.filter(({ frame }) => ["tool-output", "tool-denied"].includes(frame.kind));
    expect(settling).toHaveLength(1);
    expect(purges).toHaveLength(winner.status === "approved" ? 1 : 0);
    expect(kinds(rest).at(-1)).toBe("run-finish");
    expect(await signalsOf(run.runId)).toEqual([`signal:tool:${run.runId}:${toolCallId}`]);
  });
});
