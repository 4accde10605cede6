import { type BaseEvent, EventType, PROTOCOL_VERSION, type RunAgentInput } from "@ag-ui/core";
import { EventEncoder } from "@ag-ui/encoder";
import type { SequencedFrame } from "prepick/core";
import type { RouteContext } from "../context";
import { followFrames } from "../follow-frames";
import { eventStreamResponse } from "../sse";
import { FrameEvents, PREPICK_METADATA_KEY, type RunEnding } from "./frame-events";

/** One of our runs an AG-UI run streams: from where the reader is, translated by what it has seen. */
export interface FollowedRun {
  /** Our run. */
  runId: string;
  /** Its frames the reader already has (a resumed run's, up to its park); followed from after them. */
  before: readonly SequencedFrame[];
}

/** What one AG-UI response streams. */
export interface AgUiStreamOptions {
  /** The input's thread and run, which `RUN_STARTED` and the run's end name. */
  input: Pick<RunAgentInput, "threadId" | "runId">;
  /** Our run to follow, or the refusal that ends the run at once. */
  start:
    | { run: FollowedRun }
    | { error: { message: string; code: string; metadata: Record<string, unknown> } };
  /**
   * What to run once the followed run has finished (not parked): the person's new message sent
   * with a resume, started as the next turn. Resolves the run to follow, or a refusal.
   */
  next?: () => Promise<{ run: FollowedRun } | { error: { message: string; code: string } } | undefined>;
  /** Extra response headers. */
  headers?: Record<string, string>;
}

function metadata(value: Record<string, unknown>) {
  return { [PREPICK_METADATA_KEY]: value };
}

/**
 * An AG-UI response (server-sent events encoded with `@ag-ui/encoder`): `RUN_STARTED` for the
 * input's run, our run's frames from where the reader is, translated, then the end: `RUN_FINISHED`
 * with an interrupt outcome when the run parks, success or cancelled when it ends, `RUN_ERROR` when
 * it fails or the input was refused. A server closing mid-run ends the response without an end:
 * the run goes on, durably, and its end is read by resuming.
 */
export function agUiStreamResponse(context: RouteContext, options: AgUiStreamOptions): Response {
  const encoder = new EventEncoder();
  const { threadId, runId } = options.input;
  return eventStreamResponse(
    async (enqueue, signal) => {
      const send = async (events: readonly BaseEvent[]) => {
        for (const event of events) await enqueue(encoder.encodeSSE(event));
      };
      const follow = async ({ runId: ours, before }: FollowedRun): Promise<RunEnding | undefined> => {
        const translator = new FrameEvents(ours);
        for (const { frame } of before) translator.translate(frame, false);
        const after = before.at(-1)?.seq ?? 0;
        const followed = followFrames({
          store: context.store,
          feeds: context.runFeeds,
          runId: ours,
          after,
          followAll: false,
          signal,
        });
        for await (const item of followed) {
          if (item === "quiet") await enqueue(": keep-alive\n\n");
          else await send(translator.translate(item.frame));
          if (translator.ending) break;
        }
        if (translator.ending) await send(translator.closeOpen());
        return translator.ending;
      };
      const start = options.start;
      await send([
        {
          type: EventType.RUN_STARTED,
          threadId,
          runId,
          protocolVersion: PROTOCOL_VERSION,
          ...("run" in start ? { metadata: metadata({ runId: start.run.runId }) } : {}),
        } as BaseEvent,
      ]);
      if ("error" in start) {
        await send([
          {
            type: EventType.RUN_ERROR,
            message: start.error.message,
            code: start.error.code,
            metadata: metadata(start.error.metadata),
          } as BaseEvent,
        ]);
        return;
      }
      let ending = await follow(start.run);
      if (ending && ending.kind !== "interrupt" && options.next) {
        const next = await options.next();
        if (next && "error" in next) {
          await send([
            { type: EventType.RUN_ERROR, message: next.error.message, code: next.error.code } as BaseEvent,
          ]);
          return;
        }
        if (next) ending = await follow(next.run);
      }
      if (!ending) return;
      switch (ending.kind) {
        case "interrupt":
          await send([
            {
              type: EventType.RUN_FINISHED,
              threadId,
              runId,
              outcome: { type: "interrupt", interrupts: ending.interrupts },
            } as BaseEvent,
          ]);
          return;
        case "success":
        case "cancelled":
          // An expired run (its opt-in deadline passed while it waited) says so where AG-UI has no field.
          await send([
            {
              type: EventType.RUN_FINISHED,
              threadId,
              runId,
              outcome: { type: ending.kind },
              ...(ending.kind === "cancelled" && ending.expired
                ? { metadata: metadata({ expired: true }) }
                : {}),
            } as BaseEvent,
          ]);
          return;
        case "failed":
          // The sentence, and the failure's own code and error id where AG-UI has no field for them.
          await send([
            {
              type: EventType.RUN_ERROR,
              message: ending.message,
              code: "run_failed",
              ...(ending.code
                ? {
                    metadata: metadata({
                      code: ending.code,
                      ...(ending.errorId ? { errorId: ending.errorId } : {}),
                    }),
                  }
                : {}),
            } as BaseEvent,
          ]);
          return;
      }
    },
    { ...(options.headers ? { headers: options.headers } : {}), closing: context.closing },
  );
}
