import { isDeepStrictEqual } from "node:util";
import type { Frame } from "prepick/core";
import type { TurnContext } from "./turn-context";

/**
 * The frame emitter for model call `step`. A process that died during that call left the frames
 * it had streamed, but no checkpoint, so the call is made again; the frames the new call repeats
 * exactly are not stored twice, and a reader resuming from its last sequence number sees the
 * step once. A model that answers differently the second time (a real model may) gets its new
 * frames appended after the old ones: the stream never loses a frame a reader may have seen.
 */
export async function stepEmitter(
  context: TurnContext,
  step: number,
): Promise<(frame: Frame) => Promise<void>> {
  const earlier = await context.store.unfinishedStepFrames(context.run.id, step);
  let matched = 0;
  let diverged = false;
  return async (frame) => {
    if (!diverged && matched < earlier.length) {
      if (isDeepStrictEqual(earlier[matched], frame)) {
        matched += 1;
        return;
      }
      diverged = true;
    }
    await context.emit(frame);
  };
}
