import { Worker } from "node:worker_threads";
import { createServer, DEMO_AGENTS } from "prepick/server";
import { EACH_FRAME_SQL } from "../server/store/frames";
import type { LoadJob, LoadResult } from "./answer-load";
import { startFloor } from "./floor";
import { parkRun } from "./park-run";
import { cpuText, type PeerResults } from "./peers";
import { type CpuReading, cpuPerRun, readCpu } from "./process-cpu";
import { type BenchRow, figure } from "./result";
import { seedParkedRuns } from "./seed-parked-runs";
import { benchPostgresDataDir, openStoreUnderTest } from "./store-under-test";

const CALLS = 1_000;
const CONNECTIONS = 10;
const ACTOR = "bench-throughput";

/** Runs the load generator in a thread of its own, so the server's event loop serves the answers alone. */
function answerLoad(job: LoadJob): Promise<LoadResult> {
  const worker = new Worker(new URL("./answer-load.ts", import.meta.url), {
    execArgv: ["--import", "tsx"],
    workerData: job,
  });
  return new Promise<LoadResult>((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  }).finally(() => worker.terminate());
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The floor's CPU per answered run: the same load on a server doing only the required work. */
async function floorAnswered(kind: "pglite" | "postgres"): Promise<CpuReading> {
  const store = await openStoreUnderTest(kind);
  const floor = await startFloor(store.db, 0);
  try {
    await floor.seedPending("answer-", CALLS);
    const postgres = await benchPostgresDataDir(kind);
    const before = readCpu(postgres);
    const load = await answerLoad({
      url: floor.url,
      actor: ACTOR,
      callPrefix: "floor-answer-",
      calls: CALLS,
      connections: CONNECTIONS,
    });
    if (load.refused > 0) throw new Error(`${load.refused} answers to the floor were refused`);
    for (let waited = 0; floor.completed() < CALLS; waited += 250) {
      if (waited > 120_000) throw new Error(`only ${floor.completed()} of the floor's runs finished`);
      await sleep(250);
    }
    return cpuPerRun(before, readCpu(postgres), CALLS);
  } finally {
    await floor.close();
    await store.dispose();
  }
}

/**
 * Continued runs per second: 1 000 parked intakes answered by 10 concurrent clients, each run
 * counted when the frame its resumed loop wrote next (`step-start`) was written, not when its
 * answer was acknowledged; against Mastra's and DBOS's resumes per second, measured the same way
 * on the same PostgreSQL. Also the backlog: the slowest run from its acknowledgement to that frame.
 */
export async function answerThroughput(
  kind: "pglite" | "postgres",
  peers?: () => Promise<PeerResults>,
): Promise<BenchRow[]> {
  const store = await openStoreUnderTest(kind);
  const server = await createServer({ agents: DEMO_AGENTS, database: store.db, port: 0, host: "127.0.0.1" });
  try {
    const template = await parkRun(server.url, ACTOR);
    await seedParkedRuns(store.db, template, CALLS);
    const postgres = await benchPostgresDataDir(kind);
    const cpuBefore = readCpu(postgres);
    const load = await answerLoad({
      url: server.url,
      actor: ACTOR,
      callPrefix: `intake-${template.runId}-c`,
      calls: CALLS,
      connections: CONNECTIONS,
    });
    if (load.refused > 0) throw new Error(`${load.refused} answers were refused`);
    // A cheap count while the runs go on (its cost falls on every contender alike), the times after.
    for (let waited = 0; ; waited += 250) {
      const [row] = await store.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM prepick_runs WHERE id LIKE $1 AND status = 'completed'",
        [`${template.runId}-c%`],
      );
      if (Number(row?.n) >= CALLS) break;
      if (waited > 120_000) throw new Error(`only ${row?.n} of ${CALLS} runs finished`);
      await sleep(250);
    }
    const cpu = cpuPerRun(cpuBefore, readCpu(postgres), CALLS);
    const continued = await store.db.query<{ run: string; at: number }>(
      `SELECT run_id AS run, extract(epoch FROM min(created_at)) * 1000 AS at FROM ${EACH_FRAME_SQL} AS f
       WHERE run_id LIKE $1 AND frame->>'kind' = 'step-start' GROUP BY run_id`,
      [`${template.runId}-c%`],
    );
    const ats = continued.map((row) => Number(row.at));
    const rate = CALLS / ((Math.max(...ats) - load.startedAt) / 1000);
    const backlog = Math.max(
      ...continued.map(
        (row) => Number(row.at) - (load.acknowledgedAt[Number(row.run.split("-c").at(-1))] ?? 0),
      ),
    );
    const rows: BenchRow[] = [];
    const floor = await floorAnswered(kind);
    rows.push({
      id: `cpu.per-run.answered.${kind}`,
      metric: `CPU per answered intake run, from the first answer to the last run's finish: the server's main thread${kind === "postgres" ? " (PostgreSQL's processes beside it)" : ", PGlite included"} (${store.label})`,
      baseline: `${figure(floor.thread, "ms", 3)} (the floor: HTTP, 3 statements, one model call${kind === "postgres" ? `; PostgreSQL ${figure(floor.postgres, "ms", 3)}` : ""})`,
      ours: kind === "postgres" ? cpuText(cpu) : figure(cpu.thread, "ms", 3),
      ratio: figure(cpu.thread / floor.thread, "×"),
      target: "≤ 1.5× the floor",
      pass: cpu.thread <= 1.5 * floor.thread,
    });
    const compare = (peer: string, label: string, times: number) => {
      const theirs = peerFigures?.[peer]?.resumesPerSecond;
      if (theirs === undefined) return;
      rows.push({
        id: `throughput.continued-runs.against-${peer}`,
        metric: `Continued runs/s, ${CALLS} parked intakes, ${CONNECTIONS} clients, against ${label} (${store.label})`,
        baseline: `${figure(theirs, "resumes/s", 0)} (${label}, counted at its next step)`,
        ours: figure(rate, "runs/s", 0),
        ratio: figure(rate / theirs, "×"),
        target: `≥ ${times}× ${label}`,
        pass: rate >= times * theirs,
      });
    };
    const peerFigures = peers ? await peers() : undefined;
    if (peerFigures) {
      // The target is DBOS's rate; Mastra's, which commits nothing between an answer and the next step, is the stretch.
      compare("mastra", "Mastra", 1);
      compare("dbos", "DBOS", 1);
      for (const [peer, label] of [
        ["langgraph-sync", "LangGraph, durability sync"],
        ["langgraph-async", "LangGraph, durability async"],
      ] as const) {
        const theirs = peerFigures[peer]?.resumesPerSecond;
        if (theirs === undefined) continue;
        rows.push({
          id: `throughput.continued-runs.against-${peer}`,
          metric: `Continued runs/s against ${label} (${store.label})`,
          baseline: `${figure(theirs, "resumes/s", 0)} (${label})`,
          ours: figure(rate, "runs/s", 0),
          ratio: figure(rate / theirs, "×"),
          target: "—",
          pass: "reported",
        });
      }
    } else {
      rows.push({
        id: `throughput.continued-runs.${kind}`,
        metric: `Continued runs/s, ${CALLS} parked intakes, ${CONNECTIONS} clients (${store.label})`,
        baseline: "—",
        ours: figure(rate, "runs/s", 0),
        ratio: "—",
        target: "—",
        pass: "reported",
      });
    }
    rows.push({
      id: `throughput.backlog.${kind}`,
      metric: `Backlog: the slowest of those runs, acknowledged → continued (${store.label})`,
      baseline: "—",
      ours: figure(backlog, "ms", 0),
      ratio: "—",
      target: "≤ 1 s",
      pass: backlog <= 1_000,
    });
    return rows;
  } finally {
    await server.close();
    await store.dispose();
  }
}
