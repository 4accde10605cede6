import { Worker } from "node:worker_threads";
import { createServer, DEMO_AGENTS } from "prepick/server";
import type { LoadJob, LoadResult } from "./answer-load";
import { parkRun } from "./park-run";
import { type BenchRow, figure } from "./result";
import { seedParkedRuns } from "./seed-parked-runs";
import { openStoreUnderTest, rawUpdateThroughput } from "./store-under-test";

const CALLS = 1_000;
const CONNECTIONS = 10;
const ACTOR = "bench-throughput";

/** Runs autocannon in a thread of its own, so the server's event loop serves the answers alone. */
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

/**
 * Answers per second on distinct pending calls (autocannon on loopback, each request naming the
 * next call), against the same store's raw single-row UPDATE throughput at the same concurrency.
 */
export async function answerThroughput(kind: "pglite" | "postgres"): Promise<BenchRow> {
  const store = await openStoreUnderTest(kind);
  const server = await createServer({ agents: DEMO_AGENTS, database: store.db, port: 0, host: "127.0.0.1" });
  try {
    const template = await parkRun(server.url, ACTOR);
    await seedParkedRuns(store.db, template, CALLS);
    const baseline = await rawUpdateThroughput(store.db, CALLS, CONNECTIONS);
    const load = await answerLoad({
      url: server.url,
      actor: ACTOR,
      callPrefix: `intake-${template.runId}-c`,
      calls: CALLS,
      connections: CONNECTIONS,
    });
    if (load.refused > 0 || load.failed > 0) {
      throw new Error(`${load.refused} answers were refused and ${load.failed} failed`);
    }
    const ours = load.ok / (load.ms / 1000);
    return {
      metric: `Answer throughput, distinct pending calls (${store.label})`,
      baseline: `${figure(baseline, "updates/s", 0)} (raw single-row UPDATE)`,
      ours: figure(ours, "answers/s", 0),
      ratio: figure(ours / baseline, "×"),
      target: "≥ 0.5× the raw update throughput",
      pass: ours >= 0.5 * baseline,
    };
  } finally {
    await server.close();
    await store.dispose();
  }
}
