import type { Frame, SequencedFrame } from "prepick/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatBody, followRun, intakeId } from "../support/agent-api";
import { type ApiClient, apiClient } from "../support/api-client";
import { type ServerProcess, startServer } from "../support/server-process";
import { endsStream, heldFrames, readFrames } from "../support/sse";
import { type FaultCluster, startFaultCluster } from "./support/fault-database";
import { normalizeIds } from "./support/normalize-ids";
import { between, seededRandom } from "./support/seeded-random";
import { socketStream } from "./support/socket-stream";

const ACTOR = "cutter";
const CUTS = 200;
const SEED = 20_261_129;
// Bounds the loops even if a server never finishes a run: far more than 200 cuts need.
const MAX_RUNS = 120;
const MAX_READS_PER_RUN = 60;

let server: ServerProcess | undefined;
let cluster: FaultCluster | undefined;
let client: ApiClient;

beforeAll(async () => {
  cluster = await startFaultCluster("stream_cuts");
  server = await startServer({ env: { DATABASE_URL: await cluster.freshDatabase() } });
  client = apiClient(server.url, ACTOR);
}, 60_000);

afterAll(async () => {
  await server?.kill();
  await cluster?.stop();
});

function serverUrl(path: string): string {
  if (!server) throw new Error("the server did not start");
  return `${server.url}${path}`;
}

/**
 * Reads until `count` frames arrived, then drops the connection as a flaky network would
 * (`cut`). A park or the finish ends the read without a cut: nothing follows a park until the
 * test answers, and nothing follows the finish.
 */
async function readSome(
  response: Response,
  count: number,
  after: number,
): Promise<{ frames: SequencedFrame[]; cut: boolean }> {
  let seen = 0;
  let cut = false;
  const frames = await readFrames(response, {
    after,
    until: (frame: Frame) => {
      if (endsStream(frame)) return true;
      cut = ++seen >= count;
      return cut;
    },
  });
  return { frames, cut };
}

/** Reopens the run's stream after the last frame received, as a browser's EventSource does. */
function resume(runId: string, lastEventId: number): Promise<Response> {
  return socketStream(serverUrl(`/agent/runs/${encodeURIComponent(runId)}/stream?follow=all`), {
    headers: { "x-actor-id": ACTOR, accept: "text/event-stream", "last-event-id": String(lastEventId) },
  });
}

/** One refactorer turn read through at most `budget` cuts at seeded positions. */
async function cutRun(random: () => number, budget: number) {
  const response = await socketStream(serverUrl("/agent/chat"), {
    method: "POST",
    headers: { "x-actor-id": ACTOR, "content-type": "application/json", accept: "text/event-stream" },
    body: JSON.stringify(chatBody("refactorer", "Refactor the parser")),
  });
  expect(response.status).toBe(200);
  const runId = response.headers.get("x-run-id") ?? "";
  let joined: SequencedFrame[] = [];
  let cuts = 0;
  let answered = false;
  let current = response;
  for (let read = 0; read < MAX_READS_PER_RUN; read++) {
    const after = joined.at(-1)?.seq ?? 0;
    const { frames, cut } = await readSome(current, cuts < budget ? between(random, 1, 4) : Infinity, after);
    // A reopened stream follows the run live: it never ends without sending something.
    expect(frames.length, `read ${read} of run ${runId} got nothing`).toBeGreaterThan(0);
    // A model call's frames stream without an id until stored: a reader reconnecting drops those.
    joined = heldFrames([...joined, ...frames]);
    const last = joined.at(-1);
    if (last?.frame.kind === "run-finish") return { runId, joined, cuts };
    if (cut) cuts += 1;
    if (!answered && last?.frame.kind === "run-parked") {
      // Answer while disconnected: the continuation is written while nobody reads it.
      const answer = await client.post("/agent/tool-call/answer", { toolCallId: intakeId(runId) });
      expect(answer.status).toBe(200);
      answered = true;
    }
    current = await resume(runId, last?.seq ?? 0);
    expect(current.status).toBe(200);
  }
  throw new Error(`run ${runId} did not finish within ${MAX_READS_PER_RUN} reads`);
}

describe("stream cuts", { timeout: 240_000 }, () => {
  it(`loses and doubles no frame across ${CUTS} disconnects resumed with Last-Event-ID`, async () => {
    // The same turn read without a cut: the content every cut run must equal.
    const whole = await client.postStream("/agent/chat", chatBody("refactorer", "Refactor the parser"));
    const wholeRunId = whole.headers.get("x-run-id") ?? "";
    const parked = await readFrames(whole, { until: endsStream });
    await client.post("/agent/tool-call/answer", { toolCallId: intakeId(wholeRunId) });
    const uninterrupted = [...parked, ...(await followRun(client, wholeRunId, parked.at(-1)?.seq ?? 0))];
    expect(uninterrupted.at(-1)?.frame.kind).toBe("run-finish");

    const random = seededRandom(SEED);
    let cuts = 0;
    for (let runs = 0; cuts < CUTS && runs < MAX_RUNS; runs++) {
      const run = await cutRun(random, CUTS - cuts);
      cuts += run.cuts;
      expect(run.joined.map(({ seq }) => seq)).toEqual(run.joined.map((_, index) => index + 1));
      expect(run.joined).toEqual(await followRun(client, run.runId, 0));
      expect(normalizeIds(run.joined)).toEqual(normalizeIds(uninterrupted));
    }
    expect(cuts).toBe(CUTS);
  });
});
