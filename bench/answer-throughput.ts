import autocannon from "autocannon";
import { createServer, DEMO_AGENTS } from "prepick/server";
import { parkRun } from "./park-run";
import { type BenchRow, figure } from "./result";
import { seedParkedRuns } from "./seed-parked-runs";
import { openStoreUnderTest, rawUpdateThroughput } from "./store-under-test";

const CALLS = 1_000;
const CONNECTIONS = 10;
const ACTOR = "bench-throughput";

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
    let next = 0;
    const result = await autocannon({
      url: server.url,
      connections: CONNECTIONS,
      amount: CALLS,
      requests: [
        {
          method: "POST",
          path: "/agent/tool-call/answer",
          headers: { "x-actor-id": ACTOR, "content-type": "application/json" },
          setupRequest: (request) => {
            next += 1;
            return { ...request, body: JSON.stringify({ toolCallId: `intake-${template.runId}-c${next}` }) };
          },
        },
      ],
    });
    if (result.non2xx > 0 || result.errors > 0) {
      throw new Error(`${result.non2xx} answers were refused and ${result.errors} failed`);
    }
    const ours = result["2xx"] / result.duration;
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
