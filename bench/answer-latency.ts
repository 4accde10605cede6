import type { Frame } from "prepick/core";
import { createServer, DEMO_AGENTS } from "prepick/server";
import { readFrames } from "../tests/support/sse";
import { parkRun } from "./park-run";
import { type BenchRow, figure, median, quantile } from "./result";
import { openStoreUnderTest, writeNotifyRoundTrips } from "./store-under-test";

const SAMPLES = 150;

/**
 * Time from `POST /agent/tool-call/answer` to the first continuation frame on a stream that was
 * already following the run, against the store's own write-plus-notify round trip.
 */
export async function answerLatency(kind: "pglite" | "postgres"): Promise<BenchRow[]> {
  const store = await openStoreUnderTest(kind);
  const server = await createServer({ agents: DEMO_AGENTS, database: store.db, port: 0, host: "127.0.0.1" });
  try {
    const roundTrips = await writeNotifyRoundTrips(store.db, SAMPLES);
    const latencies: number[] = [];
    for (let index = 0; index < SAMPLES; index++) {
      const run = await parkRun(server.url, "bench-latency", `Refactor module ${index}`);
      const follower = await fetch(
        `${server.url}/agent/runs/${run.runId}/stream?after=${run.lastSeq}&follow=all`,
        { headers: { "x-actor-id": "bench-latency" } },
      );
      const started = performance.now();
      const answered = fetch(`${server.url}/agent/tool-call/answer`, {
        method: "POST",
        headers: { "x-actor-id": "bench-latency", "content-type": "application/json" },
        body: JSON.stringify({ toolCallId: `intake-${run.runId}` }),
      });
      const [first] = await readFrames(follower, { until: (_frame: Frame) => true });
      latencies.push(performance.now() - started);
      if (first?.frame.kind !== "tool-output")
        throw new Error(`the continuation began with ${first?.frame.kind}`);
      const response = await answered;
      if (response.status !== 200) throw new Error(`answer answered ${response.status}`);
      await response.text();
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
    ];
  } finally {
    await server.close();
    await store.dispose();
  }
}
