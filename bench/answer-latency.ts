import { Worker } from "node:worker_threads";
import { createServer, DEMO_AGENTS } from "prepick/server";
import type { AnswerJob, AnswerTiming } from "./answer-client";
import { parkRun } from "./park-run";
import { type BenchRow, figure, median, quantile } from "./result";
import { openStoreUnderTest, writeNotifyRoundTrips } from "./store-under-test";

const SAMPLES = 150;

/**
 * The person's side in a thread of its own, as a browser would be: the server's event loop then
 * serves the run alone, and the client's own parsing does not wait behind the resumed run.
 */
export function answerClient() {
  const worker = new Worker(new URL("./answer-client.ts", import.meta.url), {
    execArgv: ["--import", "tsx"],
  });
  // One answer at a time: the listeners are set once, and each reply settles the waiting one.
  let waiting: { resolve: (timing: AnswerTiming) => void; reject: (error: Error) => void } | undefined;
  worker.on("message", (reply: { ok: true; timing: AnswerTiming } | { ok: false; error: string }) => {
    if (reply.ok) waiting?.resolve(reply.timing);
    else waiting?.reject(new Error(reply.error));
  });
  worker.on("error", (error) => waiting?.reject(error));
  return {
    answer: (job: AnswerJob) =>
      new Promise<AnswerTiming>((resolve, reject) => {
        waiting = { resolve, reject };
        worker.postMessage(job);
      }),
    close: () => worker.terminate(),
  };
}

/**
 * Time from `POST /agent/tool-call/answer` to the first continuation frame on a stream that was
 * already following the run, against the store's own write-plus-notify round trip.
 */
export async function answerLatency(kind: "pglite" | "postgres"): Promise<BenchRow[]> {
  const store = await openStoreUnderTest(kind);
  const server = await createServer({ agents: DEMO_AGENTS, database: store.db, port: 0, host: "127.0.0.1" });
  try {
    const roundTrips = await writeNotifyRoundTrips(store.db, SAMPLES);
    const client = answerClient();
    const latencies: number[] = [];
    const refused: number[] = [];
    try {
      for (let index = 0; index < SAMPLES; index++) {
        const run = await parkRun(server.url, "bench-latency", `Refactor module ${index}`);
        const timing = await client.answer({
          url: server.url,
          actor: "bench-latency",
          runId: run.runId,
          lastSeq: run.lastSeq,
          toolCallId: `intake-${run.runId}`,
        });
        if (timing.status !== 200) throw new Error(`answer answered ${timing.status}`);
        if (timing.firstKind !== "tool-output")
          throw new Error(`the continuation began with ${timing.firstKind}`);
        latencies.push(timing.ms);
        refused.push(timing.refusedMs);
      }
    } finally {
      await client.close();
    }
    const baseline = median(roundTrips);
    const p50 = median(latencies);
    const p99 = quantile(latencies, 0.99);
    return [
      {
        metric: `Answer → first continuation frame, p50 (${store.label})`,
        baseline: `${figure(baseline, "ms")} (row write + notify)`,
        ours: figure(p50, "ms"),
        ratio: `${figure(p50 / baseline, "×")}`,
        target: "≤ 3× the round trip",
        pass: p50 <= 3 * baseline,
      },
      {
        metric: `Answer → first continuation frame, p99 (${store.label})`,
        baseline: `${figure(quantile(roundTrips, 0.99), "ms")} (row write + notify, p99)`,
        ours: figure(p99, "ms"),
        ratio: `${figure(p99 / quantile(roundTrips, 0.99), "×")}`,
        target: "—",
        pass: "reported",
      },
      {
        metric: `HTTP alone: a refused answer's round trip, p50 (${store.label} server, no store read)`,
        baseline: `${figure(baseline, "ms")} (row write + notify)`,
        ours: figure(median(refused), "ms"),
        ratio: `${figure(median(refused) / baseline, "×")}`,
        target: "—",
        pass: "reported",
      },
    ];
  } finally {
    await server.close();
    await store.dispose();
  }
}
