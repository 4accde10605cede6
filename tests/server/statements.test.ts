import { createServer, DEMO_AGENTS, openDatabase, type PrepickServer } from "prepick/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PostgresCluster, startPostgres } from "../support/postgres";
import {
  type StatementLog,
  statementLog,
  statementsOfAnsweredRun,
  statementsOfStartedRun,
} from "../support/statement-log";

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

function counted() {
  if (!server) throw new Error("the server did not start");
  return { url: server.url, log, actor: "counter" };
}

/** Every statement is one the log knows by name: a new kind of statement must be named to be counted. */
function expectAtMost(names: readonly string[], most: number): void {
  const unnamed = names.filter((name) => !/^[a-zA-Z]/.test(name) || name.includes("prepick_"));
  expect(unnamed, "statements the log cannot name").toEqual([]);
  expect(names.length, names.map((name, index) => `${index + 1}. ${name}`).join("\n")).toBeLessThanOrEqual(
    most,
  );
}

describe("statements per run, on PostgreSQL", { timeout: 60_000 }, () => {
  it(`starts a run of one model call, streamed to its chat, in at most ${MAX_PER_STARTED_RUN} statements`, async () => {
    expectAtMost(await statementsOfStartedRun(counted()), MAX_PER_STARTED_RUN);
  });

  it(`continues an answered intake run to its finish in at most ${MAX_PER_ANSWERED_RUN} statements, its stream followed`, async () => {
    expectAtMost(await statementsOfAnsweredRun(counted()), MAX_PER_ANSWERED_RUN);
  });
});
