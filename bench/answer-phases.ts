// `npm run bench:phases [pglite|postgres]`: where the time of one answer goes, from the person's
// request to the first continuation frame in their stream. A diagnostic, not a benchmark row: it
// wraps the store's methods and the HTTP server's writes to timestamp each phase, which itself
// costs a little, so `npm run bench` measures the total without it. It runs the server from its
// sources (tsconfig.json's paths), since the store classes it wraps are the sources' own.
import { IncomingMessage, Server, ServerResponse } from "node:http";
import { createServer, DEMO_AGENTS } from "prepick/server";
import { CheckpointStore } from "../server/store/checkpoints";
import { SettlementStore } from "../server/store/settlements";
import { ToolCallStore } from "../server/store/tool-calls";
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

const calls = new Map<string, number>();

/**
 * Timestamps a store method's start and end, as `<label> start` and `<label> end`, the n-th
 * call of an answer (from 1) as `<label> n start`.
 */
function timeStoreMethod(prototype: object, name: string, label: string): void {
  const original = (prototype as Record<string, (...args: unknown[]) => Promise<unknown>>)[name];
  if (!original) throw new Error(`no method ${name} to time`);
  Object.assign(prototype, {
    async [name](this: unknown, ...args: unknown[]) {
      const n = (calls.get(label) ?? 0) + 1;
      calls.set(label, n);
      const named = n === 1 ? label : `${label} ${n}`;
      mark(`${named} start`);
      const result = await original.apply(this, args);
      mark(`${named} end`);
      return result;
    },
  });
}

function instrument(): void {
  timeStoreMethod(ToolCallStore.prototype, "get", "toolCall");
  timeStoreMethod(SettlementStore.prototype, "settle", "settle");
  timeStoreMethod(CheckpointStore.prototype, "record", "record");
  const emit = Server.prototype.emit;
  Server.prototype.emit = function (this: Server, event: string | symbol, ...args: unknown[]) {
    const url = args[0] instanceof IncomingMessage ? args[0].url : undefined;
    // The refused request before each answer arrives too; the last arrival is the answer's.
    if (event === "request" && url === "/agent/tool-call/answer") mark("request arrives", true);
    return (emit as (...all: unknown[]) => boolean).call(this, event, ...args);
  } as typeof emit;
  const write = ServerResponse.prototype.write;
  ServerResponse.prototype.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
    // A stored frame comes as PostgreSQL writes jsonb as text (`"kind": "…"`), a live one as JSON.stringify's.
    const text = chunk instanceof Uint8Array ? Buffer.from(chunk).toString() : "";
    if (/"kind": ?"tool-output"/.test(text)) mark("settlement frame written to the stream");
    if (/"kind": ?"step-start"/.test(text)) mark("next frame written to the stream");
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as typeof write;
}

/** The phases, each from the previous mark to its own. */
const PHASES: readonly [string, string][] = [
  ["request arrives", "HTTP in: the client sends, the server parses the request"],
  ["toolCall start", "routing, actor, body read"],
  ["toolCall end", "statement 1: read the pending row"],
  ["settle start", "check the answers"],
  ["settle end", "statement 2: settle the row, record the signal and its tool-output frame, claim the run"],
  ["settlement frame written to the stream", "the follower wakes, reads and writes the settlement's frame"],
  [
    "record start",
    "the loop replays the journal up to the answer and makes the model call (scripted, no latency)",
  ],
  ["record end", "statement 3: the model call's checkpoint, with intake:answers, its frames and usage"],
  ["next frame written to the stream", "the follower wakes, reads and writes the run's next frame"],
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
      calls.clear();
      const job: AnswerJob = {
        url: server.url,
        actor: "bench-phases",
        runId: run.runId,
        lastSeq: run.lastSeq,
        toolCallId: `intake-${run.runId}`,
      };
      const timing = await client.answer(job);
      if (index < WARM_UP) continue;
      // The follower may hear a commit before the writer's own statement returns: let it return.
      await new Promise((resolve) => setTimeout(resolve, 5));
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
