import type { Frame } from "prepick/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DELTA_FLUSH_MS, stepEmitter } from "./step-emitter";
import type { TurnContext } from "./turn-context";

const delta = (text: string): Frame => ({ kind: "text-delta", id: "0-t", delta: text });

/** A turn context of which the emitter reads only the journal's last number and the live run. */
function contextStreaming(to: { after: number; frames: Frame[] }[], stored: Frame[][] = []): TurnContext {
  return {
    journal: { lastSeq: 7 },
    live: {
      provisional: (after: number, frames: readonly Frame[]) => to.push({ after, frames: [...frames] }),
      abandon: () => undefined,
    },
    emit: async (frames: readonly Frame[]) => {
      stored.push([...frames]);
    },
  } as unknown as TurnContext;
}

afterEach(() => {
  vi.useRealTimers();
});

describe("stepEmitter", () => {
  it("streams the call's first frame the moment it is emitted, then the rest in batches", () => {
    vi.useFakeTimers();
    const streamed: { after: number; frames: Frame[] }[] = [];
    const emitter = stepEmitter(contextStreaming(streamed));
    emitter.emit({ kind: "step-start", step: 0 });
    // No timer has run: followers have the step's start without waiting for a batch or a commit.
    expect(streamed).toEqual([{ after: 7, frames: [{ kind: "step-start", step: 0 }] }]);
    emitter.emit(delta("a"));
    emitter.emit(delta("b"));
    expect(streamed).toHaveLength(1);
    vi.advanceTimersByTime(DELTA_FLUSH_MS);
    expect(streamed).toEqual([
      { after: 7, frames: [{ kind: "step-start", step: 0 }] },
      { after: 7, frames: [delta("a"), delta("b")] },
    ]);
    emitter.emit(delta("c"));
    // The call ended before the next batch: its frames go to the checkpoint, all of them, once.
    expect(emitter.end()).toEqual([{ kind: "step-start", step: 0 }, delta("a"), delta("b"), delta("c")]);
    vi.advanceTimersByTime(DELTA_FLUSH_MS);
    expect(streamed).toHaveLength(2);
  });

  it("stores what a failed call streamed, and streams nothing more after a drop", async () => {
    vi.useFakeTimers();
    const streamed: { after: number; frames: Frame[] }[] = [];
    const stored: Frame[][] = [];
    const failed = stepEmitter(contextStreaming(streamed, stored));
    failed.emit({ kind: "step-start", step: 1 });
    failed.emit(delta("x"));
    await failed.store();
    expect(stored).toEqual([[{ kind: "step-start", step: 1 }, delta("x")]]);
    const dropped = stepEmitter(contextStreaming(streamed, stored));
    dropped.emit({ kind: "step-start", step: 2 });
    dropped.emit(delta("y"));
    dropped.drop();
    vi.advanceTimersByTime(DELTA_FLUSH_MS);
    expect(streamed.map(({ frames }) => frames)).toEqual([
      [{ kind: "step-start", step: 1 }],
      [{ kind: "step-start", step: 2 }],
    ]);
    expect(stored).toHaveLength(1);
  });
});
