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
 * Time from `POST /agent/tool-call/answer` to the frame the resumed run writes next (the run
 * continued), on a stream that was already following the run, against the floor: a refused
 * answer's round trip (HTTP alone) plus the store's write-plus-notify round trip, both in the
 * same run. The interval to the settlement's own frame (written before the answer is
 * acknowledged) is reported beside it. On PostgreSQL, DBOS's send → next step is a second bar.
 */
export async function answerLatency(
  kind: "pglite" | "postgres",
  dbos?: () => Promise<number[]>,
): Promise<BenchRow[]> {
  const store = await openStoreUnderTest(kind);
  const server = await createServer({ agents: DEMO_AGENTS, database: store.db, port: 0, host: "127.0.0.1" });
  try {
    const roundTrips = await writeNotifyRoundTrips(store.db, SAMPLES);
    const client = answerClient();
    const continued: number[] = [];
    const settled: number[] = [];
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
        if (timing.kinds.join() !== "tool-output,step-start") {
          throw new Error(`the continuation began with ${timing.kinds.join(", ")}`);
        }
        continued.push(timing.ms);
        settled.push(timing.settledMs);
        refused.push(timing.refusedMs);
      }
    } finally {
      await client.close();
    }
    const floor = median(refused) + median(roundTrips);
    const floorText = `${figure(floor, "ms")} (HTTP alone ${figure(median(refused), "ms")} + row write and notify ${figure(median(roundTrips), "ms")})`;
    const p50 = median(continued);
    const rows: BenchRow[] = [
      {
        id: `answer.continued-p50.${kind}`,
        metric: `Answer → the run's next frame (continued), p50 (${store.label})`,
        baseline: floorText,
        ours: figure(p50, "ms"),
        ratio: figure(p50 / floor, "×"),
        target: "≤ 1.5× the floor",
        pass: p50 <= 1.5 * floor,
      },
      {
        id: `answer.continued-p99.${kind}`,
        metric: `Answer → the run's next frame (continued), p99 (${store.label})`,
        baseline: floorText,
        ours: figure(quantile(continued, 0.99), "ms"),
        ratio: figure(quantile(continued, 0.99) / floor, "×"),
        target: "—",
        pass: "reported",
      },
      {
        id: `answer.acknowledged-p50.${kind}`,
        metric: `Answer → the settlement's tool-output frame (acknowledged), p50 (${store.label})`,
        baseline: floorText,
        ours: figure(median(settled), "ms"),
        ratio: figure(median(settled) / floor, "×"),
        target: "—",
        pass: "reported",
      },
    ];
    if (dbos) {
      const theirs = median(await dbos());
      rows.push({
        id: "answer.continued-p50.against-dbos",
        metric: `Answer → the run's next frame (continued), p50, against DBOS (${store.label})`,
        baseline: `${figure(theirs, "ms")} (DBOS.send → the workflow's next step, p50)`,
        ours: figure(p50, "ms"),
        ratio: figure(p50 / theirs, "×"),
        target: "≤ 1× DBOS (stretch ≤ 0.75×)",
        pass: p50 <= theirs,
      });
    }
    return rows;
  } finally {
    await server.close();
    await store.dispose();
  }
}
