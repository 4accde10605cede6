// A person's client for the answer-latency benchmark, in its own thread: it follows a parked run,
// answers it, and times the first continuation frame, without sharing the server's event loop.
import { parentPort } from "node:worker_threads";
import type { Frame } from "prepick/core";
import { readFrames } from "../tests/support/sse";

/** One parked run to answer. */
export interface AnswerJob {
  url: string;
  actor: string;
  runId: string;
  lastSeq: number;
  toolCallId: string;
}

/** What the client measured. */
export interface AnswerTiming {
  /** From sending the answer to reading the first continuation frame, in ms. */
  ms: number;
  /** That frame's kind. */
  firstKind: string | undefined;
  /** The answer's HTTP status. */
  status: number;
  /** When the answer was sent, on the wall clock shared by every thread (ms). */
  sentAt: number;
  /** A refused answer's round trip (HTTP and body parsing only; no store), in ms. */
  refusedMs: number;
}

/** The same request refused before the store is read: what HTTP alone costs this pair of threads. */
async function refusedRoundTrip(job: AnswerJob): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${job.url}/agent/tool-call/answer`, {
    method: "POST",
    headers: { "x-actor-id": job.actor, "content-type": "application/json" },
    body: JSON.stringify({ toolCallId: "" }),
  });
  await response.text();
  if (response.status !== 400) throw new Error(`a refused answer answered ${response.status}`);
  return performance.now() - started;
}

async function answer(job: AnswerJob): Promise<AnswerTiming> {
  const refusedMs = await refusedRoundTrip(job);
  const headers = { "x-actor-id": job.actor };
  const follower = await fetch(`${job.url}/agent/runs/${job.runId}/stream?after=${job.lastSeq}&follow=all`, {
    headers,
  });
  const sentAt = performance.timeOrigin + performance.now();
  const started = performance.now();
  const answered = fetch(`${job.url}/agent/tool-call/answer`, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify({ toolCallId: job.toolCallId }),
  });
  const [first] = await readFrames(follower, { until: (_frame: Frame) => true });
  const ms = performance.now() - started;
  const response = await answered;
  await response.text();
  return { ms, firstKind: first?.frame.kind, status: response.status, sentAt, refusedMs };
}

parentPort?.on("message", (job: AnswerJob) => {
  answer(job).then(
    (timing) => parentPort?.postMessage({ ok: true, timing }),
    (error: unknown) => parentPort?.postMessage({ ok: false, error: String(error) }),
  );
});
