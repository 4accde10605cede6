import type { Frame, SequencedFrame } from "prepick/core";
import type { ApiClient } from "./api-client";
import { endsStream, readFrames } from "./sse";

/** A chat turn as the POST answered it: ids from the headers and the frames up to park or finish. */
export interface ChatTurn {
  status: number;
  runId: string;
  threadId: string;
  frames: SequencedFrame[];
}

/** The body of a chat request with one user text part. */
export function chatBody(agent: string, text: string, threadId?: string) {
  return {
    agent,
    ...(threadId !== undefined ? { threadId } : {}),
    message: { role: "user", parts: [{ type: "text", text }] },
  };
}

/** Sends one chat message and reads its stream until the run parks or finishes. */
export async function startChat(client: ApiClient, agent: string, text: string): Promise<ChatTurn> {
  const response = await client.postStream("/agent/chat", chatBody(agent, text));
  if (response.status !== 200) {
    throw new Error(`POST /agent/chat answered ${response.status}: ${await response.text()}`);
  }
  const runId = response.headers.get("x-run-id") ?? "";
  const threadId = response.headers.get("x-thread-id") ?? "";
  const frames = await readFrames(response, { until: endsStream });
  return { status: response.status, runId, threadId, frames };
}

/**
 * Reads a run's stored and live frames after `after` until it finishes. `?follow=all` keeps the
 * server's stream open across a `run-parked` frame it replays, which otherwise ends it.
 */
export async function followRun(
  client: ApiClient,
  runId: string,
  after: number,
  until: (frame: Frame) => boolean = (frame) => frame.kind === "run-finish",
  timeoutMs?: number,
): Promise<SequencedFrame[]> {
  const path = `/agent/runs/${encodeURIComponent(runId)}/stream?after=${after}&follow=all`;
  const response = await client.getStream(path, timeoutMs);
  if (response.status !== 200) {
    throw new Error(`GET /agent/runs/${runId}/stream answered ${response.status}: ${await response.text()}`);
  }
  return readFrames(response, { until, after, ...(timeoutMs !== undefined ? { timeoutMs } : {}) });
}

/** The last sequence number among `frames` (0 for none). */
export function lastSeq(frames: readonly SequencedFrame[]): number {
  return frames.reduce((last, { seq }) => Math.max(last, seq), 0);
}

/** The frames of one kind, in order. */
export function framesOf<Kind extends Frame["kind"]>(
  frames: readonly SequencedFrame[],
  kind: Kind,
): Extract<Frame, { kind: Kind }>[] {
  return frames
    .map(({ frame }) => frame)
    .filter((frame): frame is Extract<Frame, { kind: Kind }> => frame.kind === kind);
}

function listIn(body: unknown, key: string): unknown[] {
  if (Array.isArray(body)) return body;
  const inner = (body as Record<string, unknown> | null)?.[key];
  if (Array.isArray(inner)) return inner;
  throw new Error(`Expected an array or { ${key}: [...] }, got ${JSON.stringify(body)}`);
}

/** The run's checkpoint names in journal order (`GET /agent/runs/:runId/checkpoints`). */
export async function checkpointNames(client: ApiClient, runId: string): Promise<string[]> {
  const response = await client.get(`/agent/runs/${encodeURIComponent(runId)}/checkpoints`);
  if (response.status !== 200) {
    throw new Error(`GET checkpoints answered ${response.status}: ${JSON.stringify(response.body)}`);
  }
  return listIn(response.body, "checkpoints").map((entry) =>
    typeof entry === "string" ? entry : String((entry as { name?: unknown }).name),
  );
}

/** The actor's pending tool-call rows (`GET /agent/approvals`). */
export async function approvals(client: ApiClient): Promise<Record<string, unknown>[]> {
  const response = await client.get("/agent/approvals");
  if (response.status !== 200) {
    throw new Error(`GET /agent/approvals answered ${response.status}: ${JSON.stringify(response.body)}`);
  }
  return listIn(response.body, "approvals") as Record<string, unknown>[];
}

/** The settled output a 200 or 409 from answer/skip/approve/reject carries. */
export function settledOutput(body: unknown): unknown {
  const record = body as Record<string, unknown> | null;
  return record && typeof record === "object" && "output" in record ? record.output : body;
}

/** The intake's tool-call id for a run, as the wire contract names it. */
export function intakeId(runId: string): string {
  return `intake-${runId}`;
}

/** The checkpoints an intake that asks spends, in order, before the turn's first model call. */
export function intakeCheckpoints(runId: string): string[] {
  return [
    "persist:run:start",
    "intake:ask",
    `signal:tool:${runId}:${intakeId(runId)}`,
    "intake:answers",
    "stream:step-start:0",
  ];
}
