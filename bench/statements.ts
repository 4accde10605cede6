import { createServer, DEMO_AGENTS } from "prepick/server";
import {
  statementLog,
  statementsOfAnsweredRun,
  statementsOfStartedRun,
} from "../tests/support/statement-log";
import type { BenchRow } from "./result";
import { openStoreUnderTest } from "./store-under-test";

const ACTOR = "bench-statements";

const listed = (names: readonly string[]) => names.map((name, index) => `${index + 1}. ${name}`).join("; ");

/**
 * The statements one run costs PostgreSQL, each named by what it does (tests/server/statements
 * .test.ts holds them to the same targets in `npm test`): a started run of one model call, its
 * chat's stream read to the end; and an answered intake run, from the answer to the run's finish,
 * with the person's stream already following it. The per-process timers are left out.
 */
export async function statementsPerRun(): Promise<BenchRow[]> {
  const store = await openStoreUnderTest("postgres");
  const log = statementLog(store.db);
  const server = await createServer({
    agents: DEMO_AGENTS,
    database: log.db,
    port: 0,
    host: "127.0.0.1",
    leaseMs: 600_000,
    sweepMs: 600_000,
  });
  try {
    const startedNames = await statementsOfStartedRun({ url: server.url, log, actor: ACTOR });
    const answeredNames = await statementsOfAnsweredRun({ url: server.url, log, actor: ACTOR });
    return [
      {
        id: "statements.started-run",
        metric: "Statements per started run (one model call, its chat's stream read to the end, PostgreSQL)",
        baseline: "—",
        ours: `${startedNames.length}: ${listed(startedNames)}`,
        ratio: String(startedNames.length),
        target: "≤ 3",
        pass: startedNames.length <= 3,
        history: {
          figure: "13 statements per started run, the start a six-statement transaction",
          commit: "3133eeb",
          date: "2026-12-03",
        },
      },
      {
        id: "statements.answered-intake",
        metric:
          "Statements per answered intake run (answer to finish, one model call, its stream followed, PostgreSQL)",
        baseline: "—",
        ours: `${answeredNames.length}: ${listed(answeredNames)}`,
        ratio: String(answeredNames.length),
        target: "≤ 4",
        pass: answeredNames.length <= 4,
        history: {
          figure: "7 statements per answered intake run, one of them a read of the model call's frames",
          commit: "3133eeb",
          date: "2026-12-03",
        },
      },
    ];
  } finally {
    await server.close();
    await store.dispose();
  }
}
