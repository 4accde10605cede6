// `npm run bench:phases [pglite|postgres]`: where the time of one answer goes, from the person's
// request to the first continuation frame in their stream. A diagnostic, not a benchmark row: it
// wraps the store's methods and the HTTP server's writes to timestamp each phase, which itself
// costs a little, so `npm run bench` measures the total without it.
import { IncomingMessage, Server, ServerResponse } from "node:http";
import { createServer, DEMO_AGENTS } from "prepick/server";
import { Store } from "../server/store/store";
import type { AnswerJob } from "./answer-client";
import { answerClient } from "./answer-latency";
import { parkRun } from "./park-run";
import { median } from "./result";
import { openStoreUnderTest } from "./store-under-test";

const SAMPLES = 150;
const WARM_UP = 20;

/** When each mark was first reached in the current answer, on the clock every thread shares. */
const marks = new Map<string, number>();
const now = () => performance.timeOrigin + performance.now();
const mark = (name: string, always = false) => {
  if (always || !marks.has(name)) marks.set(name, now());
};

/** Timestamps a store method's start and end. */
function timeStoreMethod(name: "toolCall" | "settleByPerson" | "recordCheckpoints"): void {
  const original = Store.prototype[name] as (...args: unknown[]) => Promise<unknown>;
  Object.assign(Store.prototype, {
    async [name](this: Store, ...args: unknown[]) {
      mark(`${name} start`);
      const result = await original.apply(this, args);
      mark(`${name} end`);
      return result;
    },
  });
}

function instrument(): void {
  timeStoreMethod("toolCall");
  timeStoreMethod("settleByPerson");
  timeStoreMethod("recordCheckpoints");
  const emit = Server.prototype.emit;
  Server.prototype.emit = function (this: Server, event: string | symbol, ...args: unknown[]) {
    const url = args[0] instanceof IncomingMessage ? args[0].url : undefined;
    // The refused request before each answer arrives too; the last arrival is the answer's.
    if (event === "request" && url === "/agent/tool-call/answer") mark("request arrives", true);
    return (emit as (...all: unknown[]) => boolean).call(this, event, ...args);
  } as typeof emit;
  const write = ServerResponse.prototype.write;
  ServerResponse.prototype.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
    if (chunk instanceof Uint8Array && Buffer.from(chunk).includes('"kind":"tool-output"')) {
      mark("frame written to the stream");
    }
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as typeof write;
}

/** The phases, each from the previous mark to its own. */
const PHASES: readonly [string, string][] = [
  ["request arrives", "HTTP in: the client sends, the server parses the request"],
  ["toolCall start", "routing, actor, body read"],
  ["toolCall end", "statement 1: read the pending row"],
  ["settleByPerson start", "check the answers"],
  ["settleByPerson end", "statement 2: settle the row, claim the run, read the journal"],
  ["recordCheckpoints start", "the loop replays the journal up to the answer"],
  ["recordCheckpoints end", "statement 3: the tool-output checkpoint and its frame"],
  ["frame written to the stream", "the follower wakes and writes the frame"],
  ["client reads the frame", "HTTP out: the client reads and parses the frame"],
];

async function main(kind: "pglite" | "postgres"): Promise<void> {
  instrument();
  const store = await openStoreUnderTest(kind);
  const server = await createServer({ agents: DEMO_AGENTS, database: store.db, port: 0, host: "127.0.0.1" });
  const client = answerClient();
  const durations = new Map<string, number[]>(PHASES.map(([to]) => [to, []]));
  try {
    for (let index = 0; index < SAMPLES + WARM_UP; index++) {
      const run = await parkRun(server.url, "bench-phases", `Refactor module ${index}`);
      marks.clear();
      const job: AnswerJob = {
        url: server.url,
        actor: "bench-phases",
        runId: run.runId,
        lastSeq: run.lastSeq,
        toolCallId: `intake-${run.runId}`,
      };
      const timing = await client.answer(job);
      if (index < WARM_UP) continue;
      marks.set("client reads the frame", timing.sentAt + timing.ms);
      let previous = timing.sentAt;
      for (const [to] of PHASES) {
        const at = marks.get(to);
        if (at === undefined) throw new Error(`the answer never reached "${to}"`);
        durations.get(to)?.push(at - previous);
        previous = at;
      }
    }
  } finally {
    await client.close();
    await server.close();
    await store.dispose();
  }
  console.log(`Where an answer's time goes (${store.label}), median of ${SAMPLES} answers:\n`);
  console.log("| Phase | ms |\n| --- | --- |");
  let total = 0;
  for (const [to, phase] of PHASES) {
    const ms = median(durations.get(to) ?? []);
    total += ms;
    console.log(`| ${phase} | ${ms.toFixed(2)} |`);
  }
  console.log(`| Sum of the medians | ${total.toFixed(2)} |`);
  process.exit(0);
}

await main(process.argv[2] === "postgres" ? "postgres" : "pglite");
