import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { HOSTILE_PATTERN, HOSTILE_VALUE, MATCHING_VALUE } from "./support/hostile-pattern";

// The hook runs in a worker thread with a deadline: a matcher that backtracked on the pattern
// would stall that thread, which is terminated and the test failed, where matching in this
// worker would hang the whole run instead.
const DEADLINE_MS = 60_000;

interface Seen {
  value: string[] | undefined;
  issues: { rule: string; message: string }[] | undefined;
  error: string | undefined;
  isValid: boolean;
}

function inPage(): Promise<{ refused: Seen; accepted: Seen }> {
  const worker = new Worker(new URL("./support/hostile-pattern-page.worker.tsx", import.meta.url), {
    execArgv: ["--import", "tsx"],
  });
  return new Promise<{ refused: Seen; accepted: Seen }>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`The page did not return within ${DEADLINE_MS} ms checking ${HOSTILE_PATTERN}`)),
      DEADLINE_MS,
    );
    worker.once("message", (seen: { refused: Seen; accepted: Seen } | { error: string }) => {
      clearTimeout(timer);
      if ("error" in seen) reject(new Error(`The page worker failed: ${seen.error}`));
      else resolve(seen);
    });
    worker.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
  }).finally(() => worker.terminate());
}

describe("a model-authored pattern built for catastrophic backtracking, in the page", {
  timeout: 120_000,
}, () => {
  it("is checked against a long value by the hook's validation, which returns", async () => {
    const { refused, accepted } = await inPage();
    expect(refused.value).toEqual([HOSTILE_VALUE]);
    expect(refused.issues?.[0]).toMatchObject({ rule: "pattern" });
    expect(refused.issues?.[0]?.message).toContain(HOSTILE_PATTERN);
    // The person is not shown the regular expression.
    expect(refused.error).toBe("Enter it in the form the question asks for.");
    expect(refused.isValid).toBe(false);

    expect(accepted.value).toEqual([MATCHING_VALUE]);
    expect(accepted.error).toBeUndefined();
    expect(accepted.isValid).toBe(true);
  });
});
