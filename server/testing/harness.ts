import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Frame, SequencedFrame } from "prepick/core";
import { seededPgliteFolder } from "../../tests/support/pglite-folder";
import { readFrames } from "../../tests/support/sse";
import { createServer, type PrepickServer, type ServerOptions } from "../server";

// One SSE reader serves every suite: it reads to the stream's end, or fails listing what it saw.
export { readFrames };

/** A temporary folder for an on-disk store; `remove()` deletes it. */
export async function tempDataDir(): Promise<{ path: string; remove: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), "prepick-test-"));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

/**
 * A temporary folder holding an initialised PGlite store with no table yet (a copy of the host's
 * template: see `seededPgliteFolder`), for a server's `dataDir`; `remove()` deletes it.
 */
export async function tempStore(): Promise<{ path: string; remove: () => Promise<void> }> {
  const folder = await tempDataDir();
  await seededPgliteFolder(folder.path);
  return folder;
}

/** Starts a server on a free loopback port. */
export function startServer(options: ServerOptions): Promise<PrepickServer> {
  // The sweep for lost notifications is a safety net: no test may rely on it, so it never runs.
  return createServer({ port: 0, host: "127.0.0.1", sweepMs: 3_600_000, ...options });
}

/** A JSON request as an actor; returns the status, headers and parsed body. */
export async function call(
  server: PrepickServer,
  method: "GET" | "POST",
  path: string,
  actor: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  // Every POST is JSON, as the server requires of a state-changing request (a body or not).
  const sent = body ?? (method === "POST" ? {} : undefined);
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { "x-actor-id": actor, ...(sent !== undefined ? { "content-type": "application/json" } : {}) },
    ...(sent !== undefined ? { body: JSON.stringify(sent) } : {}),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text === "" ? {} : (JSON.parse(text) as Record<string, unknown>),
  };
}

/** Sends a chat message and reads the stream until the run parks or finishes. */
export async function chat(
  server: PrepickServer,
  actor: string,
  text: string,
  extra: { agent?: string; threadId?: string } = {},
): Promise<{ status: number; runId: string; threadId: string; frames: SequencedFrame[] }> {
  const response = await fetch(`${server.url}/agent/chat`, {
    method: "POST",
    headers: { "x-actor-id": actor, "content-type": "application/json" },
    body: JSON.stringify({ ...extra, message: { role: "user", parts: [{ type: "text", text }] } }),
  });
  const runId = response.headers.get("x-run-id") ?? "";
  const threadId = response.headers.get("x-thread-id") ?? "";
  if (response.status !== 200) {
    await response.text();
    return { status: response.status, runId, threadId, frames: [] };
  }
  return { status: 200, runId, threadId, frames: await readFrames(response) };
}

/** Reads a run's stream from `after` until it parks or finishes. */
export async function follow(
  server: PrepickServer,
  actor: string,
  runId: string,
  after: number,
  query = "",
): Promise<SequencedFrame[]> {
  const response = await fetch(`${server.url}/agent/runs/${runId}/stream${query}`, {
    headers: { "x-actor-id": actor, "last-event-id": String(after) },
  });
  if (response.status !== 200)
    throw new Error(`stream answered ${response.status}: ${await response.text()}`);
  return readFrames(response);
}

/** The kinds of a list of frames, for compact assertions. */
export function kinds(frames: readonly SequencedFrame[]): string[] {
  return frames.map(({ frame }) => frame.kind);
}

/** The first frame of a kind, typed. */
export function frameOf<K extends Frame["kind"]>(
  frames: readonly SequencedFrame[],
  kind: K,
): Extract<Frame, { kind: K }> | undefined {
  return frames.find(({ frame }) => frame.kind === kind)?.frame as Extract<Frame, { kind: K }> | undefined;
}

/** How many usage rows a run wrote: one per model call. */
export async function usageCount(server: PrepickServer, runId: string): Promise<number> {
  const rows = await server.store.db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM prepick_usage WHERE run_id = $1",
    [runId],
  );
  return Number(rows[0]?.n ?? 0);
}
