// The client side of a burst, in its own thread, so the server's event loop (whose CPU a burst row
// reads) serves the runs alone: `runs` chats sent at once over at most 100 keep-alive sockets,
// each left as soon as its run has started (status 200), as a page that navigates away would.
import { Agent, request } from "node:http";
import { parentPort, workerData } from "node:worker_threads";
import { chatBody } from "../tests/support/agent-api";

/** What the burst client is told. */
export interface BurstJob {
  url: string;
  actor: string;
  agent: string;
  runs: number;
}

/** What it saw: when the first chat was sent (ms since the epoch), and the chats refused. */
export interface BurstResult {
  startedAt: number;
  refused: number;
}

const job = workerData as BurstJob;
const agent = new Agent({ keepAlive: true, maxSockets: 100 });

function start(text: string): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const sent = request(
      `${job.url}/agent/chat`,
      { method: "POST", agent, headers: { "x-actor-id": job.actor, "content-type": "application/json" } },
      (response) => {
        resolve(response.statusCode === 200);
        response.destroy();
      },
    );
    sent.on("error", reject);
    sent.end(JSON.stringify(chatBody(job.agent, text)));
  });
}

const startedAt = performance.timeOrigin + performance.now();
const started = await Promise.all(
  Array.from({ length: job.runs }, (_, index) => start(`Say hello to ${index}`)),
);
agent.destroy();
const reply: BurstResult = { startedAt, refused: started.filter((ok) => !ok).length };
parentPort?.postMessage(reply);
