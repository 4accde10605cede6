import type { Frame } from "prepick/core";
import { createServer, DEMO_AGENTS, openDatabase, type PrepickServer } from "prepick/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { intakeId, lastSeq, startChat } from "../support/agent-api";
import { apiClient } from "../support/api-client";
import { type PostgresCluster, startPostgres } from "../support/postgres";
import { readFrames } from "../support/sse";
import { type StatementLog, statementLog } from "../support/statement-log";

// The work a run costs the database, counted: every statement the server sends for one run, each
// named by what it does. The per-process timers (lease renewal, the expired-lease check) are left
// out: they cost the same whatever a process runs. A count, not a time, so it holds on any machine.
const MAX_PER_STARTED_RUN = 3;
const MAX_PER_ANSWERED_RUN = 4;

let cluster: PostgresCluster | undefined;
let server: PrepickServer | undefined;
let log: StatementLog;

beforeAll(async () => {
  cluster = await startPostgres("statements");
  log = statementLog(await openDatabase({ url: cluster.url }));
  // Leases and the sweep far apart, so no timer's statement falls inside a count.
  server = await createServer({
    agents: DEMO_AGENTS,
    database: log.db,
    port: 0,
    host: "127.0.0.1",
    leaseMs: 600_000,
    sweepMs: 600_000,
  });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await log?.db.close();
  await cluster?.stop();
});

function client() {
  if (!server) throw new Error("the server did not start");
  return apiClient(server.url, "counter");
}

/** Every statement is one the log knows by name: a new kind of statement must be named to be counted. */
function expectNamed(names: readonly string[]): void {
  const unnamed = names.filter((name) => !/^[a-zA-Z]/.test(name) || name.includes("prepick_"));
  expect(unnamed, "statements the log cannot name").toEqual([]);
}

describe("statements per run, on PostgreSQL", { timeout: 60_000 }, () => {
  it(`starts a run of one model call, streamed to its chat, in at most ${MAX_PER_STARTED_RUN} statements`, async () => {
    const person = client();
    // The first run warms the process (its first claim); the second is counted.
    await startChat(person, "planner", "Say hello");
    log.clear();
    const turn = await startChat(person, "planner", "Say hello");
    expect(turn.frames.at(-1)?.frame).toEqual({ kind: "run-finish", status: "completed" });
    const names = log.names();
    expectNamed(names);
    expect(names.length, names.map((name, index) => `${index + 1}. ${name}`).join("\n")).toBeLessThanOrEqual(
      MAX_PER_STARTED_RUN,
    );
  });

  it(`continues an answered intake run to its finish in at most ${MAX_PER_ANSWERED_RUN} statements, its stream followed`, async () => {
    const person = client();
    const turn = await startChat(person, "refactorer", "Refactor the parser");
    expect(turn.frames.at(-1)?.frame.kind).toBe("run-parked");
    // The person's page follows the run from its park on, as it would while they answer.
    const following = await person.getStream(
      `/agent/runs/${encodeURIComponent(turn.runId)}/stream?after=${lastSeq(turn.frames) - 1}&follow=all`,
    );
    let parkSeen: () => void = () => undefined;
    const parked = new Promise<void>((resolve) => {
      parkSeen = resolve;
    });
    const rest = readFrames(following, {
      until: (frame: Frame) => {
        if (frame.kind === "run-parked") parkSeen();
        return frame.kind === "run-finish";
      },
    });
    await parked;
    log.clear();
    const answer = await person.post("/agent/tool-call/answer", { toolCallId: intakeId(turn.runId) });
    expect(answer.status).toBe(200);
    const frames = await rest;
    expect(frames.at(-1)?.frame).toEqual({ kind: "run-finish", status: "completed" });
    const names = log.names();
    expectNamed(names);
    expect(names.length, names.map((name, index) => `${index + 1}. ${name}`).join("\n")).toBeLessThanOrEqual(
      MAX_PER_ANSWERED_RUN,
    );
  });
});
