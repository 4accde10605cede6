// The load generator for the answer-throughput benchmark, in its own thread: autocannon answers
// distinct pending calls without sharing the server's event loop, as clients elsewhere would.
import { parentPort, workerData } from "node:worker_threads";
import autocannon from "autocannon";

/** What the load generator is told. */
export interface LoadJob {
  url: string;
  actor: string;
  /** Call `i` (from 1) is `<callPrefix><i>`. */
  callPrefix: string;
  calls: number;
  connections: number;
}

/** What it measured. */
export interface LoadResult {
  ok: number;
  refused: number;
  failed: number;
  /** From the first request to the last response, in ms. */
  ms: number;
}

const job = workerData as LoadJob;
let next = 0;
const started = performance.now();
// autocannon notices the end of a run on its own one-second tick; the last response is the end.
let lastResponse = started;
const instance = autocannon({
  url: job.url,
  connections: job.connections,
  amount: job.calls,
  requests: [
    {
      method: "POST",
      path: "/agent/tool-call/answer",
      headers: { "x-actor-id": job.actor, "content-type": "application/json" },
      setupRequest: (request) => {
        next += 1;
        return { ...request, body: JSON.stringify({ toolCallId: `${job.callPrefix}${next}` }) };
      },
    },
  ],
});
instance.on("response", () => {
  lastResponse = performance.now();
});
const result = await instance;
const reply: LoadResult = {
  ok: result["2xx"],
  refused: result.non2xx,
  failed: result.errors + result.timeouts,
  ms: lastResponse - started,
};
parentPort?.postMessage(reply);
