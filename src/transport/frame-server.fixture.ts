import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Frame, SequencedFrame } from "@/lib/prepick/core/frames";

/** A scripted run for the loopback frame server: its frames so far and the ones each action adds. */
export interface ScriptedRun {
  runId: string;
  threadId: string;
  messageId: string;
  frames: SequencedFrame[];
}

/**
 * A process that died in a model call: the chat streamed `streamed` before the call's checkpoint
 * (events without an id) and ended; the process that took the run over stored `rerun`.
 */
export interface ScriptedCrash {
  streamed: Frame[];
  rerun: Frame[];
}

/**
 * A loopback HTTP server that speaks the reference server's SSE wire format from a script:
 * `POST /agent/chat` streams `script.start` (then `script.crash.streamed`, unstored, and ends),
 * `GET /agent/runs/:id/stream?after=N` replays the stored frames after N, and each tool-call
 * endpoint appends `script.after[toolCallId]`.
 */
export async function startFrameServer(script: {
  start: Frame[];
  after?: Record<string, Frame[]>;
  crash?: ScriptedCrash;
}): Promise<{
  url: string;
  run: ScriptedRun;
  requests: { path: string; body: unknown }[];
  close: () => Promise<void>;
}> {
  const run: ScriptedRun = { runId: "run-1", threadId: "", messageId: "msg-a1", frames: [] };
  const requests: { path: string; body: unknown }[] = [];
  const append = (frames: Frame[]) => {
    for (const frame of frames) run.frames.push({ seq: run.frames.length + 1, frame });
  };
  const writeFrames = (
    response: import("node:http").ServerResponse,
    after: number,
    unstored: Frame[] = [],
  ) => {
    response.writeHead(200, {
      "content-type": "text/event-stream",
      "x-run-id": run.runId,
      "x-thread-id": run.threadId,
    });
    for (const { seq, frame } of run.frames) {
      if (seq <= after) continue;
      response.write(`id: ${seq}\ndata: ${JSON.stringify(frame)}\n\n`);
    }
    for (const frame of unstored) response.write(`data: ${JSON.stringify(frame)}\n\n`);
    response.end();
  };
  const server: Server = createServer((request, response) => {
    let raw = "";
    request.on("data", (chunk) => {
      raw += chunk;
    });
    request.on("end", () => {
      const url = new URL(request.url ?? "/", "http://127.0.0.1");
      const body: unknown = raw ? JSON.parse(raw) : undefined;
      requests.push({ path: url.pathname, body });
      if (url.pathname === "/agent/chat") {
        run.threadId = (body as { threadId: string }).threadId;
        append(script.start);
        if (!script.crash) return writeFrames(response, 0);
        writeFrames(response, 0, script.crash.streamed);
        return append(script.crash.rerun);
      }
      if (url.pathname === `/agent/runs/${run.runId}/stream`) {
        return writeFrames(response, Number(url.searchParams.get("after") ?? 0));
      }
      if (url.pathname.startsWith("/agent/tool-call/")) {
        const toolCallId = (body as { toolCallId: string }).toolCallId;
        const frames = script.after?.[toolCallId];
        if (!frames) {
          response.writeHead(404, { "content-type": "application/json" });
          return response.end(JSON.stringify({ error: `no tool call ${toolCallId}` }));
        }
        append(frames);
        const output = frames.find((frame) => frame.kind === "tool-output");
        response.writeHead(200, { "content-type": "application/json" });
        return response.end(
          JSON.stringify({
            toolCallId,
            status: "completed",
            output: output?.kind === "tool-output" ? output.output : null,
          }),
        );
      }
      if (url.pathname.startsWith("/agent/threads/")) {
        response.writeHead(200, { "content-type": "application/json" });
        return response.end(
          JSON.stringify({
            threadId: run.threadId,
            agent: "test",
            messages: [
              { id: "u1", role: "user", parts: [{ type: "text", text: "hello" }] },
              {
                id: run.messageId,
                role: "assistant",
                runId: run.runId,
                status: "parked",
                lastSeq: run.frames.length,
                frames: run.frames,
              },
            ],
          }),
        );
      }
      response.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    run,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
