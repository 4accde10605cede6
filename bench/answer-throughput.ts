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
/** Answers each side takes before it is measured. */
const WARM_UP = 100;
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

/** Waits, checking every 250 ms, until `finished()` reaches `calls`. */
async function untilFinished(calls: number, finished: () => Promise<number> | number): Promise<void> {
  for (let waited = 0; ; waited += 250) {
    const done = await finished();
    if (done >= calls) return;
    if (waited > 120_000) throw new Error(`only ${done} of ${calls} runs finished`);
    await sleep(250);
  }
}

/**
 * The floor on the same load (`bench/floor.ts`: HTTP, 3 plain statements, one model call), on a
 * store of its own. Each `answer` seeds fresh pending rows, then answers them and returns the CPU
 * per run from the first answer to the last run's finish.
 */
async function answeredFloor(kind: "pglite" | "postgres") {
  const store = await openStoreUnderTest(kind);
  const floor = await startFloor(store.db, 0);
  const postgres = await benchPostgresDataDir(kind);
  let batches = 0;
  return {
    async answer(calls: number): Promise<CpuReading> {
      batches += 1;
      const prefix = `answer-${batches}-`;
      await floor.seedPending(prefix, calls);
      const target = floor.completed() + calls;
      const before = readCpu(postgres);
      const load = await answerLoad({
        url: floor.url,
        actor: ACTOR,
        callPrefix: `floor-${prefix}`,
        calls,
        connections: CONNECTIONS,
      });
      if (load.refused > 0) throw new Error(`${load.refused} answers to the floor were refused`);
      await untilFinished(target, () => floor.completed());
      return cpuPerRun(before, readCpu(postgres), calls);
    },
    async close(): Promise<void> {
      await floor.close();
      await store.dispose();
    },
  };
}

/**
 * Continued runs per second: 1 000 parked intakes answered by 10 concurrent clients, each run
 * counted when the frame its resumed loop wrote next (`step-start`) was written, not when its
 * answer was acknowledged; against Mastra's and DBOS's resumes per second, measured the same way
 * on the same PostgreSQL. Also the backlog: the slowest run from its acknowledgement to that frame.
 *
 * The CPU per run is read over the same load, against the floor's in the same process. Which side
 * runs first matters (the first pays for warming the code both share, HTTP and the driver; the
 * second runs on the first's heap), so each side first answers a small batch of its own, then the
 * floor is measured before and after ours and its baseline is the mean of the two.
 */
export async function answerThroughput(
  kind: "pglite" | "postgres",
  peers?: () => Promise<PeerResults>,
): Promise<BenchRow[]> {
  const store = await openStoreUnderTest(kind);
  const server = await createServer({ agents: DEMO_AGENTS, database: store.db, port: 0, host: "127.0.0.1" });
  const floorSide = await answeredFloor(kind);
  try {
    const postgres = await benchPostgresDataDir(kind);
    /** Parks one run, copies it `calls` times, answers the copies and waits for their runs to finish. */
    const answerOurs = async (calls: number) => {
      const template = await parkRun(server.url, ACTOR);
      await seedParkedRuns(store.db, template, calls);
      const before = readCpu(postgres);
      const load = await answerLoad({
        url: server.url,
        actor: ACTOR,
        callPrefix: `intake-${template.runId}-c`,
        calls,
        connections: CONNECTIONS,
      });
      if (load.refused > 0) throw new Error(`${load.refused} answers were refused`);
      // A cheap count while the runs go on (its cost falls on every contender alike), the times after.
      await untilFinished(calls, async () => {
        const [row] = await store.db.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM prepick_runs WHERE id LIKE $1 AND status = 'completed'",
          [`${template.runId}-c%`],
        );
        return Number(row?.n);
      });
      return { template, load, cpu: cpuPerRun(before, readCpu(postgres), calls) };
    };
    await answerOurs(WARM_UP);
    await floorSide.answer(WARM_UP);
    const floorBefore = await floorSide.answer(CALLS);
    const { template, load, cpu } = await answerOurs(CALLS);
    const floorAfter = await floorSide.answer(CALLS);
    const floor: CpuReading = {
      thread: (floorBefore.thread + floorAfter.thread) / 2,
      postgres: (floorBefore.postgres + floorAfter.postgres) / 2,
    };
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
    rows.push({
      id: `cpu.per-run.answered.${kind}`,
      metric: `CPU per answered intake run, from the first answer to the last run's finish: the server's main thread${kind === "postgres" ? " (PostgreSQL's processes beside it)" : ", PGlite included"} (${store.label})`,
      baseline: `${figure(floor.thread, "ms", 3)} (the floor: HTTP, 3 statements, one model call; the mean of ${figure(floorBefore.thread, "ms", 3)} before ours and ${figure(floorAfter.thread, "ms", 3)} after${kind === "postgres" ? `; PostgreSQL ${figure(floor.postgres, "ms", 3)}` : ""})`,
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
    await floorSide.close();
    await server.close();
    await store.dispose();
  }
}
