import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { chatBody, followRun, framesOf, intakeId, lastSeq } from "../support/agent-api";
import { apiClient } from "../support/api-client";
import { type PostgresCluster, startPostgres } from "../support/postgres";
import { type ServerProcess, startServer } from "../support/server-process";
import { endsStream, readFrames } from "../support/sse";

// Opt-in deadlines across what a deployment meets: the process that ran a bounded run killed
// while it waits (another process on the same PostgreSQL expires it at its deadline), and every
// process down when the deadline passes (the next to start expires it).

let cluster: PostgresCluster | undefined;
const servers: ServerProcess[] = [];
let created = 0;

beforeAll(async () => {
  cluster = await startPostgres("deadlines");
}, 120_000);

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.kill()));
});

afterAll(async () => {
  await cluster?.stop();
});

async function freshDatabase(): Promise<string> {
  if (!cluster) throw new Error("the PostgreSQL cluster did not start");
  created += 1;
  return cluster.createDatabase(`deadlines_${created}`);
}

async function start(url: string): Promise<ServerProcess> {
  const server = await startServer({ env: { DATABASE_URL: url }, timeoutMs: 90_000 });
  servers.push(server);
  return server;
}

/** Asks the refactorer with a bound of `expiresInMs` on `server`; reads until the run parks. */
async function boundedChat(server: ServerProcess, actor: string, expiresInMs: number) {
  const response = await apiClient(server.url, actor).postStream("/agent/chat", {
    ...chatBody("refactorer", "Refactor the parser"),
    expiresInMs,
  });
  expect(response.status).toBe(200);
  const runId = response.headers.get("x-run-id") ?? "";
  const frames = await readFrames(response, { until: endsStream });
  expect(framesOf(frames, "run-parked")).toHaveLength(1);
  const expiresAt = framesOf(frames, "elicitation")[0]?.expiresAt ?? "";
  return { runId, frames, expiresAt };
}

describe("deadlines on PostgreSQL", { timeout: 180_000 }, () => {
  it("expires a run whose process was killed while it waited, in another process, at its deadline", async () => {
    const url = await freshDatabase();
    const [holder, other] = await Promise.all([start(url), start(url)]);
    const turn = await boundedChat(holder, "ada", 3_000);
    await holder.kill("SIGKILL");
    const person = apiClient(other.url, "ada");
    const rest = await followRun(person, turn.runId, lastSeq(turn.frames));
    expect(rest.map(({ frame }) => frame)).toEqual([
      { kind: "tool-denied", id: intakeId(turn.runId), reason: "expired", cancelled: true, expired: true },
      { kind: "run-finish", status: "cancelled", expired: true },
    ]);
    // Not before its deadline.
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(turn.expiresAt));
    expect((await person.get(`/agent/tool-calls/${intakeId(turn.runId)}`)).body).toMatchObject({
      status: "expired",
    });
  });

  it("expires a run whose deadline passed while no process ran, as the next one starts", async () => {
    const url = await freshDatabase();
    const first = await start(url);
    const turn = await boundedChat(first, "bo", 1_500);
    await first.kill("SIGKILL");
    // Every process down past the deadline.
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, Date.parse(turn.expiresAt) - Date.now()) + 200),
    );
    const next = await start(url);
    const person = apiClient(next.url, "bo");
    const rest = await followRun(person, turn.runId, lastSeq(turn.frames));
    expect(rest.at(-1)?.frame).toEqual({ kind: "run-finish", status: "cancelled", expired: true });
    const late = await person.post("/agent/tool-call/skip", { toolCallId: intakeId(turn.runId) });
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ status: "expired" });
  });
});
