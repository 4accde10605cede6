// The page half of the hostile-pattern test, run in a worker thread the test can terminate: the
// hook validates a long answer against the pattern in a jsdom page of the worker's own, and posts
// what the person would see. A matcher that backtracked would stall this thread, not the test's.
import { parentPort } from "node:worker_threads";
import { JSDOM } from "jsdom";

const dom = new JSDOM("<!doctype html><html><body></body></html>", { url: "http://localhost/" });
const globals = globalThis as Record<string, unknown>;
for (const key of Object.getOwnPropertyNames(dom.window)) {
  if (!(key in globalThis)) globals[key] = (dom.window as unknown as Record<string, unknown>)[key];
}
globals.IS_REACT_ACT_ENVIRONMENT = true;

// An error crosses to the test as its stack: a jsdom error does not survive the thread's copy.
async function check() {
  const { loadPatternEngine } = await import("../../../src/core/pattern");
  await loadPatternEngine();
  const { act, renderHook } = await import("@testing-library/react");
  const { useElicitation } = await import("../../../src/hooks/use-elicitation");
  const { HOSTILE_PATTERN, HOSTILE_VALUE, MATCHING_VALUE } = await import("./hostile-pattern");

  const { result, unmount } = renderHook(() =>
    useElicitation({
      id: "call-hostile",
      request: {
        source: "ask",
        questions: [
          {
            id: "code",
            prompt: "Which code?",
            input: { type: "text", pattern: HOSTILE_PATTERN, required: true },
          },
        ],
      },
    }),
  );
  const seen = () => {
    const question = result.current.snapshot.questions[0];
    return {
      value: question?.value,
      issues: question?.issues,
      error: question?.error,
      isValid: result.current.snapshot.isValid,
    };
  };
  act(() => result.current.block.setValue("code", HOSTILE_VALUE));
  const refused = seen();
  act(() => result.current.block.setValue("code", MATCHING_VALUE));
  const accepted = seen();
  unmount();
  return { refused, accepted };
}

check().then(
  (seen) => parentPort?.postMessage(seen),
  (error: unknown) =>
    parentPort?.postMessage({
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    }),
);
