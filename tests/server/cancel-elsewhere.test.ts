import { MockLanguageModelV4 } from "ai/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentConfig } from "../../server/agents/types";
import type { PrepickServer } from "../../server/server";
import { call, readFrames, startServer } from "../../server/testing/harness";
import { hangingStreamOf, ONE_TOKEN_USAGE, streamOf } from "../support/model-stream";
import { type PostgresCluster, startPostgres } from "../support/postgres";
import { waitFor } from "../support/wait-for";

// Two processes share PostgreSQL. A run's model call hangs in the process that took the chat; the
// cancel reaches the other one, which tells the first over NOTIFY: the call is aborted there and
// the run ends cancelled, its thread free for the next message.
let cluster: PostgresCluster | undefined;
let holder: PrepickServer | undefined;
let other: PrepickServer | undefined;
const calls = { started: 0 };

/** Hangs on its first call, ignoring its abort signal as a stuck provider would; then answers. */
const model = new MockLanguageModelV4({
  doStream: async () => {
    calls.started += 1;
    if (calls.started === 1) return hangingStreamOf();
    return streamOf([
      { type: "text-start", id: "t" },
      { type: "text-delta", id: "t", delta: "Done." },
      { type: "text-end", id: "t" },
      { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage: ONE_TOKEN_USAGE },
    ]);
  },
});

const thinker: AgentConfig = { name: "thinker", systemPrompt: "You think.", model };

beforeAll(async () => {
  cluster = await startPostgres("cancel_elsewhere");
  // A lease far past the test: the run must end by the cancel, not by a lease running out.
  holder = await startServer({ agents: [thinker], databaseUrl: cluster.url, leaseMs: 600_000 });
  other = await startServer({ agents: [thinker], databaseUrl: cluster.url, leaseMs: 600_000 });
}, 90_000);

afterAll(async () => {
  await holder?.close();
  await other?.close();
  await cluster?.stop();
}, 60_000);

describe("a cancel sent to another process", { timeout: 60_000 }, () => {
  it("aborts the model call where the run is held; the run ends cancelled and the thread goes on", async () => {
    if (!holder || !other) throw new Error("the servers did not start");
    const response = await fetch(`${holder.url}/agent/chat`, {
      method: "POST",
      headers: { "x-actor-id": "ada", "content-type": "application/json" },
      body: JSON.stringify({ message: { role: "user", parts: [{ type: "text", text: "Think" }] } }),
    });
    expect(response.status).toBe(200);
    const runId = response.headers.get("x-run-id") ?? "";
    const threadId = response.headers.get("x-thread-id") ?? "";
    await waitFor("the model call to start", () => (calls.started > 0 ? true : undefined));
    const cancelling = await call(other, "POST", `/agent/runs/${runId}/cancel`, "ada");
    expect(cancelling.status).toBe(202);
    const frames = await readFrames(response);
    expect(frames.at(-1)?.frame).toEqual({ kind: "run-finish", status: "cancelled" });
    const next = await fetch(`${other.url}/agent/chat`, {
      method: "POST",
      headers: { "x-actor-id": "ada", "content-type": "application/json" },
      body: JSON.stringify({ threadId, message: { role: "user", parts: [{ type: "text", text: "Again" }] } }),
    });
    expect(next.status).toBe(200);
    expect((await readFrames(next)).at(-1)?.frame).toEqual({ kind: "run-finish", status: "completed" });
  });
});
