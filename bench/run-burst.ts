import { Agent, request } from "node:http";
import { createServer, DEMO_AGENTS } from "prepick/server";
import { chatBody } from "../tests/support/agent-api";
import { readFrames } from "../tests/support/sse";
import { type BenchRow, figure } from "./result";
import { openStoreUnderTest } from "./store-under-test";

const RUNS = 1_000;
const LATENCY_MS = 1_000;
const ACTOR = "bench-burst";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs that wait on their model, as real ones do: one run's time (a 1 s scripted model, one
 * model call) against 1 000 such runs started at once on one process, each start a chat request.
 */
export async function runBurst(kind: "pglite" | "postgres"): Promise<BenchRow> {
  const store = await openStoreUnderTest(kind);
  const server = await createServer({
    agents: DEMO_AGENTS,
    database: store.db,
    port: 0,
    host: "127.0.0.1",
    scriptedLatencyMs: LATENCY_MS,
  });
  const chat = (text: string) =>
    fetch(`${server.url}/agent/chat`, {
      method: "POST",
      headers: { "x-actor-id": ACTOR, "content-type": "application/json" },
      body: JSON.stringify(chatBody("planner", text)),
    });
  try {
    const oneStarted = performance.now();
    const one = await chat("Say hello");
    const frames = await readFrames(one, { timeoutMs: 30_000 });
    if (frames.at(-1)?.frame.kind !== "run-finish") throw new Error("the single run did not finish");
    const oneMs = performance.now() - oneStarted;

    // Every chat is sent at once, over at most 100 sockets; each is left once its run started.
    const agent = new Agent({ keepAlive: true, maxSockets: 100 });
    const start = (text: string) =>
      new Promise<void>((resolve, reject) => {
        const sent = request(
          `${server.url}/agent/chat`,
          { method: "POST", agent, headers: { "x-actor-id": ACTOR, "content-type": "application/json" } },
          (response) => {
            if (response.statusCode !== 200) reject(new Error(`a chat answered ${response.statusCode}`));
            else resolve();
            response.destroy();
          },
        );
        sent.on("error", reject);
        sent.end(JSON.stringify(chatBody("planner", text)));
      });
    const startedAt = Date.now();
    await Promise.all(Array.from({ length: RUNS }, (_, index) => start(`Say hello to ${index}`)));
    agent.destroy();
    let done = 0;
    let last = 0;
    for (let waited = 0; done < RUNS + 1; waited += 50) {
      if (waited > 120_000) throw new Error(`only ${done} of ${RUNS + 1} runs finished`);
      await sleep(50);
      const [row] = await store.db.query<{ done: number; last: number }>(
        `SELECT count(*)::int AS done, extract(epoch FROM max(finished_at)) * 1000 AS last
         FROM prepick_runs WHERE status IN ('completed', 'failed')`,
      );
      done = Number(row?.done ?? 0);
      last = Number(row?.last ?? 0);
    }
    const [failed] = await store.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM prepick_runs WHERE status <> 'completed'",
    );
    if (Number(failed?.n) > 0) throw new Error(`${failed?.n} runs did not complete`);
    const allMs = last - startedAt;
    return {
      id: `burst.${kind}`,
      metric: `${RUNS.toLocaleString("en")} runs started at once, ${LATENCY_MS / 1000} s scripted model, one process (${store.label})`,
      baseline: `${figure(oneMs, "ms", 0)} (one such run alone)`,
      ours: figure(allMs, "ms", 0),
      ratio: figure(allMs / oneMs, "×"),
      target: "≤ 3× one run",
      pass: allMs <= 3 * oneMs,
    };
  } finally {
    await server.close();
    await store.dispose();
  }
}
