// The load generator for the continued-runs benchmark, in its own thread: `connections` clients
// answer distinct pending calls one after another on keep-alive sockets, without sharing the
// server's event loop, and note when each answer was acknowledged.
import { Agent, request } from "node:http";
import { parentPort, workerData } from "node:worker_threads";

/** What the load generator is told. */
export interface LoadJob {
  url: string;
  actor: string;
  /** Call `i` (from 1) is `<callPrefix><i>`. */
  callPrefix: string;
  calls: number;
  connections: number;
}

/** What it measured; times on the wall clock (ms since the epoch), shared with the store's. */
export interface LoadResult {
  /** When the first answer was sent. */
  startedAt: number;
  /** When each call's answer was acknowledged, by call number. */
  acknowledgedAt: number[];
  /** Answers that were not a 200. */
  refused: number;
}

const job = workerData as LoadJob;
const agent = new Agent({ keepAlive: true, maxSockets: job.connections });
const wall = () => performance.timeOrigin + performance.now();

function answer(call: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const sent = request(
      `${job.url}/agent/tool-call/answer`,
      { method: "POST", agent, headers: { "x-actor-id": job.actor, "content-type": "application/json" } },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
        response.on("error", reject);
      },
    );
    sent.on("error", reject);
    sent.end(JSON.stringify({ toolCallId: `${job.callPrefix}${call}` }));
  });
}

const acknowledgedAt: number[] = [];
let refused = 0;
let next = 0;
const startedAt = wall();
await Promise.all(
  Array.from({ length: job.connections }, async () => {
    while (next < job.calls) {
      next += 1;
      const call = next;
      if ((await answer(call)) !== 200) refused += 1;
      acknowledgedAt[call] = wall();
    }
  }),
);
const reply: LoadResult = { startedAt, acknowledgedAt, refused };
parentPort?.postMessage(reply);
