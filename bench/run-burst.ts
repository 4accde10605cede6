import { Worker } from "node:worker_threads";
import { createServer, DEMO_AGENTS } from "prepick/server";
import { chatBody } from "../tests/support/agent-api";
import { readFrames } from "../tests/support/sse";
import type { BurstJob, BurstResult } from "./burst-client";
import { startFloor } from "./floor";
import { cpuText, type PeerResults } from "./peers";
import { BURST } from "./peers/measure";
import { type CpuReading, cpuPerRun, readCpu } from "./process-cpu";
import { type BenchRow, figure } from "./result";
import { benchPostgresDataDir, openStoreUnderTest } from "./store-under-test";

const ACTOR = "bench-burst";
const { runs: RUNS, stepMs: LATENCY_MS } = BURST;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function burstClient(job: BurstJob): Promise<BurstResult> {
  const worker = new Worker(new URL("./burst-client.ts", import.meta.url), {
    execArgv: ["--import", "tsx"],
    workerData: job,
  });
  return new Promise<BurstResult>((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  }).finally(() => worker.terminate());
}

/** Polls `done` (a count) every 250 ms until it reaches `count`; the polls cost both sides alike. */
async function until(count: number, done: () => Promise<number>, what: string): Promise<void> {
  for (let waited = 0; (await done()) < count; waited += 250) {
    if (waited > 180_000) throw new Error(`only ${await done()} of ${count} ${what} finished`);
    await sleep(250);
  }
}

/** One burst's figures: one run alone, all of them from the first chat sent, and CPU per run. */
interface Burst {
  oneMs: number;
  allMs: number;
  cpu: CpuReading;
}

/** Runs one chat alone, then {@link RUNS} at once against `url`; `finished` counts runs done, `lastAt` says when the last ended. */
async function burst(
  url: string,
  agent: string,
  postgres: string | undefined,
  finished: () => Promise<number>,
  lastAt: () => Promise<number>,
): Promise<Burst> {
  const chat = () =>
    fetch(`${url}/agent/chat`, {
      method: "POST",
      headers: { "x-actor-id": ACTOR, "content-type": "application/json" },
      body: JSON.stringify(chatBody(agent, "Say hello")),
    });
  // The first warms the server's code paths; the second is the run alone.
  for (const _ of [0, 1]) await readFrames(await chat(), { timeoutMs: 30_000 });
  const oneStarted = performance.now();
  const frames = await readFrames(await chat(), { timeoutMs: 30_000 });
  const oneMs = performance.now() - oneStarted;
  if (frames.length === 0) throw new Error("the run alone streamed nothing");
  const before = readCpu(postgres);
  const done = (await finished()) + RUNS;
  const client = await burstClient({ url, actor: ACTOR, agent, runs: RUNS });
  if (client.refused > 0) throw new Error(`${client.refused} chats were refused`);
  await until(done, finished, "runs");
  const cpu = cpuPerRun(before, readCpu(postgres), RUNS);
  return { oneMs, allMs: (await lastAt()) - client.startedAt, cpu };
}

/** Ours: the reference server, each chat a run of one model call to the scripted model. */
async function ourBurst(kind: "pglite" | "postgres"): Promise<Burst & { label: string }> {
  const store = await openStoreUnderTest(kind);
  const server = await createServer({
    agents: DEMO_AGENTS,
    database: store.db,
    port: 0,
    host: "127.0.0.1",
    scriptedLatencyMs: LATENCY_MS,
  });
  const count = async (sql: string) => Number((await store.db.query<{ n: number }>(sql))[0]?.n ?? 0);
  try {
    const figures = await burst(
      server.url,
      "planner",
      await benchPostgresDataDir(kind),
      () => count("SELECT count(*)::int AS n FROM prepick_runs WHERE status IN ('completed', 'failed')"),
      () => count("SELECT extract(epoch FROM max(finished_at)) * 1000 AS n FROM prepick_runs"),
    );
    const failed = await count("SELECT count(*)::int AS n FROM prepick_runs WHERE status <> 'completed'");
    if (failed > 0) throw new Error(`${failed} runs did not complete`);
    return { ...figures, label: store.label };
  } finally {
    await server.close();
    await store.dispose();
  }
}

/** The floor: the same chats on a server that does only the required work (bench/floor.ts). */
async function floorBurst(kind: "pglite" | "postgres"): Promise<Burst> {
  const store = await openStoreUnderTest(kind);
  const floor = await startFloor(store.db, LATENCY_MS);
  try {
    return await burst(
      floor.url,
      "planner",
      await benchPostgresDataDir(kind),
      async () => floor.completed(),
      async () => floor.lastCompletedAt(),
    );
  } finally {
    await floor.close();
    await store.dispose();
  }
}

/**
 * Runs that wait on their model, as real ones do: one run alone (a 1 s scripted model, one model
 * call) against 1 000 such runs started at once on one process, each start a chat request; and
 * the main thread's CPU per run (with PostgreSQL's, on PostgreSQL) against the floor's, the same
 * burst on a server doing only the required work, measured in the same run. On PostgreSQL the
 * ratio's target is DBOS's own ratio for the same burst (bench/peers), measured in the same run.
 */
export async function runBurst(
  kind: "pglite" | "postgres",
  peers?: () => Promise<PeerResults>,
): Promise<BenchRow[]> {
  const ours = await ourBurst(kind);
  const floor = await floorBurst(kind);
  const ratio = ours.allMs / ours.oneMs;
  const rows: BenchRow[] = [];
  const dbos = peers ? (await peers()).dbos?.burst : undefined;
  const dbosRatio = dbos ? dbos.allMs / dbos.oneMs : undefined;
  rows.push({
    id: `burst.${kind}`,
    metric: `${RUNS.toLocaleString("en")} runs started at once, ${LATENCY_MS / 1000} s scripted model, one process, total ÷ one run (${ours.label})`,
    baseline:
      dbosRatio === undefined
        ? `${figure(ours.oneMs, "ms", 0)} (one such run alone); the floor: ${figure(floor.allMs / floor.oneMs, "×")}`
        : `${figure(dbosRatio, "×")} (DBOS, the same burst); one run alone ${figure(ours.oneMs, "ms", 0)}`,
    ours: `${figure(ours.allMs, "ms", 0)} (${figure(ratio, "×")} one run)`,
    ratio: dbosRatio === undefined ? figure(ratio, "×") : figure(ratio / dbosRatio, "×"),
    target: dbosRatio === undefined ? "—" : "≤ 1× DBOS's ratio",
    pass: dbosRatio === undefined ? "reported" : ratio <= dbosRatio,
  });
  rows.push({
    id: `cpu.per-run.burst.${kind}`,
    metric: `CPU per run in that burst: the server's main thread${kind === "postgres" ? " (PostgreSQL's processes beside it)" : ", PGlite included"} (${ours.label})`,
    baseline: `${figure(floor.cpu.thread, "ms", 3)} (the floor: HTTP, 3 statements, one model call${kind === "postgres" ? `; PostgreSQL ${figure(floor.cpu.postgres, "ms", 3)}` : ""})`,
    ours: kind === "postgres" ? cpuText(ours.cpu) : figure(ours.cpu.thread, "ms", 3),
    ratio: figure(ours.cpu.thread / floor.cpu.thread, "×"),
    target: "≤ 1.5× the floor",
    pass: ours.cpu.thread <= 1.5 * floor.cpu.thread,
  });
  return rows;
}
