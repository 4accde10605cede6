// A person's client for the answer-latency benchmark, in its own thread: it follows a parked run,
// answers it, and times the first continuation frame, without sharing the server's event loop.
// It speaks node:http on a keep-alive agent, as lean as a browser's native fetch: undici's
// fetch in a worker thread costs more per request than the server's work being measured.
import { Agent, type IncomingMessage, request } from "node:http";
import { parentPort } from "node:worker_threads";
import { createParser } from "eventsource-parser";
import type { Frame } from "prepick/core";

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
  /** From sending the answer to reading the settlement's own frame (its `tool-output`), in ms. */
  settledMs: number;
  /** From sending the answer to reading the frame the resumed run wrote next: the run continued. */
  ms: number;
  /** The kinds of those two frames. */
  kinds: (string | undefined)[];
  /** The answer's HTTP status. */
  status: number;
  /** When the answer was sent, on the wall clock shared by every thread (ms). */
  sentAt: number;
  /** A refused answer's round trip (HTTP and body parsing only; no store), in ms. */
  refusedMs: number;
}

const agent = new Agent({ keepAlive: true, maxSockets: 4 });

/** Sends a request and resolves with its response, unread. */
function send(url: string, actor: string, body?: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { "x-actor-id": actor };
    if (body !== undefined) headers["content-type"] = "application/json";
    const sent = request(url, { method: body === undefined ? "GET" : "POST", headers, agent }, resolve);
    sent.on("error", reject);
    sent.end(body);
  });
}

/** A response's status once its whole body is read. */
async function settled(response: IncomingMessage): Promise<number> {
  for await (const _ of response) {
    // The body is drained, so the socket goes back to the agent.
  }
  return response.statusCode ?? 0;
}

/** The first two frames an event stream carries, each with when it was read; closed after them. */
function firstFrames(stream: IncomingMessage): Promise<{ frame: Frame; at: number }[]> {
  return new Promise((resolve, reject) => {
    const read: { frame: Frame; at: number }[] = [];
    const parser = createParser({
      onEvent(event) {
        read.push({ frame: JSON.parse(event.data) as Frame, at: performance.now() });
        if (read.length < 2) return;
        resolve(read);
        stream.destroy();
      },
    });
    stream.setEncoding("utf8");
    stream.on("data", (chunk: string) => parser.feed(chunk));
    stream.on("end", () => resolve(read));
    stream.on("error", reject);
  });
}

/** The same request refused before the store is read: what HTTP alone costs this pair of threads. */
async function refusedRoundTrip(job: AnswerJob): Promise<number> {
  const started = performance.now();
  const status = await settled(
    await send(`${job.url}/agent/tool-call/answer`, job.actor, JSON.stringify({ toolCallId: "" })),
  );
  if (status !== 400) throw new Error(`a refused answer answered ${status}`);
  return performance.now() - started;
}

async function answer(job: AnswerJob): Promise<AnswerTiming> {
  const refusedMs = await refusedRoundTrip(job);
  const follower = await send(
    `${job.url}/agent/runs/${job.runId}/stream?after=${job.lastSeq}&follow=all`,
    job.actor,
  );
  const first = firstFrames(follower);
  const sentAt = performance.timeOrigin + performance.now();
  const started = performance.now();
  const answered = send(
    `${job.url}/agent/tool-call/answer`,
    job.actor,
    JSON.stringify({ toolCallId: job.toolCallId }),
  );
  const frames = await first;
  const status = await settled(await answered);
  return {
    settledMs: (frames[0]?.at ?? Number.NaN) - started,
    ms: (frames[1]?.at ?? Number.NaN) - started,
    kinds: frames.map(({ frame }) => frame.kind),
    status,
    sentAt,
    refusedMs,
  };
}

parentPort?.on("message", (job: AnswerJob) => {
  answer(job).then(
    (timing) => parentPort?.postMessage({ ok: true, timing }),
    (error: unknown) => parentPort?.postMessage({ ok: false, error: String(error) }),
  );
});
