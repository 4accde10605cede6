import { MockLanguageModelV4 } from "ai/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentConfig } from "../../server/agents/types";
import type { PrepickServer } from "../../server/server";
import { call, chat, follow, kinds, startServer } from "../../server/testing/harness";
import { plain, refactorer } from "../../server/testing/test-agents";
import { hangingStreamOf } from "../support/model-stream";
import { waitFor } from "../support/wait-for";

/** An agent whose model call never ends, so its runs stay `running` until cancelled. */
const stuck: AgentConfig = {
  name: "stuck",
  systemPrompt: "You think.",
  model: new MockLanguageModelV4({ doStream: async () => hangingStreamOf() }),
};

let limited: PrepickServer;
let kept: PrepickServer;

beforeAll(async () => {
  limited = await startServer({
    agents: [refactorer, stuck],
    maxActiveRunsPerActor: 2,
    maxStartsPerMinute: 3,
  });
  kept = await startServer({ agents: [plain, refactorer], retentionMs: 1_000 });
}, 60_000);
afterAll(async () => {
  await limited?.close();
  await kept?.close();
}, 60_000);

/** Starts a turn and leaves its stream unread; returns the status, the run and the refusal. */
async function start(server: PrepickServer, actor: string, agent: string) {
  const response = await fetch(`${server.url}/agent/chat`, {
    method: "POST",
    headers: { "x-actor-id": actor, "content-type": "application/json" },
    body: JSON.stringify({ agent, message: { role: "user", parts: [{ type: "text", text: "Go" }] } }),
  });
  const runId = response.headers.get("x-run-id") ?? "";
  const body = response.status === 200 ? undefined : ((await response.json()) as Record<string, string>);
  if (response.status === 200) void response.body?.cancel();
  return { status: response.status, runId, body, retryAfter: response.headers.get("retry-after") };
}

describe("per-actor limits", () => {
  it("refuses a turn past the actor's active runs with 429 and Retry-After; other actors go on", async () => {
    const first = await start(limited, "ana", "stuck");
    const second = await start(limited, "ana", "stuck");
    expect([first.status, second.status]).toEqual([200, 200]);
    const third = await start(limited, "ana", "stuck");
    expect(third.status).toBe(429);
    expect(Number(third.retryAfter)).toBeGreaterThan(0);
    expect(third.body).toMatchObject({ field: "activeRuns", value: "2" });
    expect(third.body?.error).toContain("already has 2 runs working");
    expect((await start(limited, "ben", "stuck")).status).toBe(200);
    // A cancelled run is no longer active: the actor may start again (its third start this minute).
    expect((await call(limited, "POST", `/agent/runs/${first.runId}/cancel`, "ana")).status).toBe(202);
    await waitFor("the cancel", async () =>
      (await limited.store.runs.get(first.runId))?.status === "cancelled" ? true : undefined,
    );
    expect((await start(limited, "ana", "stuck")).status).toBe(200);
  });

  it("refuses a turn past the actor's starts in a minute, parked runs included, Retry-After within the minute", async () => {
    for (let turn = 0; turn < 3; turn++) expect((await start(limited, "cas", "refactorer")).status).toBe(200);
    const fourth = await start(limited, "cas", "refactorer");
    expect(fourth.status).toBe(429);
    expect(fourth.body).toMatchObject({ field: "startsPerMinute", value: "3" });
    const wait = Number(fourth.retryAfter);
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    expect((await start(limited, "dot", "refactorer")).status).toBe(200);
  });
});

describe("retention", () => {
  it("removes finished runs' frames and checkpoints past it, and never a parked run's", async () => {
    const done = await chat(kept, "eve", "Hello", { agent: "plain" });
    expect(done.frames.at(-1)?.frame.kind).toBe("run-finish");
    const parked = await chat(kept, "eve", "Refactor it", { agent: "refactorer" });
    expect(parked.frames.at(-1)?.frame.kind).toBe("run-parked");
    const parkedFrames = await kept.store.frames.after(parked.runId, 0);
    const parkedJournal = await kept.store.checkpoints.list(parked.runId);
    expect(parkedJournal.length).toBeGreaterThan(0);

    await waitFor("the finished run to be pruned", async () =>
      (await kept.store.checkpoints.list(done.runId)).length === 0 ? true : undefined,
    );
    const left = await kept.store.frames.after(done.runId, 0);
    expect(left.map(({ frame }) => frame.kind)).toEqual(["run-start", "run-finish"]);
    // The parked run is as it was, and answers as before.
    expect(await kept.store.frames.after(parked.runId, 0)).toEqual(parkedFrames);
    expect(await kept.store.checkpoints.list(parked.runId)).toEqual(parkedJournal);
    // The pruned run's stream still ends, its thread still reads, and the thread takes a turn.
    expect(kinds(await follow(kept, "eve", done.runId, 0))).toEqual(["run-start", "run-finish"]);
    expect((await call(kept, "GET", `/agent/threads/${done.threadId}`, "eve")).status).toBe(200);
    const next = await chat(kept, "eve", "Again", { threadId: done.threadId });
    expect(next.frames.at(-1)?.frame).toEqual({ kind: "run-finish", status: "completed" });
  });
});
