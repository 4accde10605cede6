import type { Frame } from "prepick/core";
import { createServer, DEMO_AGENTS } from "prepick/server";
import { chatBody } from "../tests/support/agent-api";
import { readFrames } from "../tests/support/sse";
import { statementLog } from "../tests/support/statement-log";
import { parkRun } from "./park-run";
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
  const chat = () =>
    fetch(`${server.url}/agent/chat`, {
      method: "POST",
      headers: { "x-actor-id": ACTOR, "content-type": "application/json" },
      body: JSON.stringify(chatBody("planner", "Say hello")),
    });
  try {
    await readFrames(await chat());
    log.clear();
    const started = await readFrames(await chat());
    if (started.at(-1)?.frame.kind !== "run-finish") throw new Error("the started run did not finish");
    const startedNames = log.names();

    const run = await parkRun(server.url, ACTOR);
    const following = await fetch(
      `${server.url}/agent/runs/${run.runId}/stream?after=${run.lastSeq - 1}&follow=all`,
      { headers: { "x-actor-id": ACTOR } },
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
    const response = await fetch(`${server.url}/agent/tool-call/answer`, {
      method: "POST",
      headers: { "x-actor-id": ACTOR, "content-type": "application/json" },
      body: JSON.stringify({ toolCallId: `intake-${run.runId}` }),
    });
    if (response.status !== 200) throw new Error(`the answer got ${response.status}`);
    if ((await rest).at(-1)?.frame.kind !== "run-finish") throw new Error("the answered run did not finish");
    const answeredNames = log.names();
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
