import type { Frame } from "prepick/core";
import { chatBody } from "../tests/support/agent-api";
import { readFrames } from "../tests/support/sse";

/** A run parked on its intake, as the chat answered it. */
export interface ParkedRun {
  runId: string;
  threadId: string;
  messageId: string;
  /** The last frame's sequence number: the continuation starts after it. */
  lastSeq: number;
}

/** Starts a refactorer turn over HTTP and reads it until it parks on its intake. */
export async function parkRun(
  baseUrl: string,
  actor: string,
  text = "Refactor the parser",
): Promise<ParkedRun> {
  const response = await fetch(`${baseUrl}/agent/chat`, {
    method: "POST",
    headers: { "x-actor-id": actor, "content-type": "application/json" },
    body: JSON.stringify(chatBody("refactorer", text)),
  });
  if (response.status !== 200) throw new Error(`chat answered ${response.status}: ${await response.text()}`);
  const frames = await readFrames(response, { until: (frame: Frame) => frame.kind === "run-parked" });
  const start = frames[0]?.frame;
  if (start?.kind !== "run-start" || frames.at(-1)?.frame.kind !== "run-parked") {
    throw new Error(
      `the run did not park on its intake: ${JSON.stringify(frames.map(({ frame }) => frame.kind))}`,
    );
  }
  return {
    runId: start.runId,
    threadId: start.threadId,
    messageId: start.messageId,
    lastSeq: frames.at(-1)?.seq ?? 0,
  };
}
