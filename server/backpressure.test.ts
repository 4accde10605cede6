import type { LanguageModelV4 } from "@ai-sdk/provider";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createScriptedModel } from "./model/scripted-model";
import type { PrepickServer } from "./server";
import { chat, startServer } from "./testing/harness";
import { plain } from "./testing/test-agents";

/** The scripted model, taking a while to answer, so runs hold their slots as real ones do. */
function slowModel(ms: number): LanguageModelV4 {
  const scripted = createScriptedModel();
  const wait = () => new Promise((resolve) => setTimeout(resolve, ms));
  return {
    specificationVersion: "v4",
    provider: scripted.provider,
    modelId: scripted.modelId,
    supportedUrls: {},
    doGenerate: async (options) => {
      await wait();
      return scripted.doGenerate(options);
    },
    doStream: async (options) => {
      await wait();
      return scripted.doStream(options);
    },
  };
}

// Far more runs than slots: past the limit, runs wait as `ready` in the store, and each slot a
// run frees claims the next one at once. The sweep for lost notifications never runs here
// (the harness sets it to an hour), so no run may wait for it.
const RUNS = 500;
const MAX_RUNS = 4;

let server: PrepickServer;

beforeAll(async () => {
  server = await startServer({ agents: [{ ...plain, model: slowModel(20) }], maxRuns: MAX_RUNS });
});

afterAll(async () => {
  await server.close();
});

describe("a process with fewer slots than runs", () => {
  it(`finishes ${RUNS} runs started at once with ${MAX_RUNS} slots, never holding more`, {
    timeout: 120_000,
  }, async () => {
    let most = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const [row] = await server.store.db.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM prepick_runs WHERE status = 'running'",
        );
        most = Math.max(most, Number(row?.n ?? 0));
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    const turns = await Promise.all(
      Array.from({ length: RUNS }, (_, index) =>
        chat(server, `person-${index % 20}`, `Say hello to ${index}`),
      ),
    );
    sampling = false;
    await sampler;
    const ends = turns.map((turn) => turn.frames.at(-1)?.frame);
    expect(ends.filter((end) => end?.kind === "run-finish" && end.status === "completed")).toHaveLength(RUNS);
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(MAX_RUNS);
    const [left] = await server.store.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM prepick_runs WHERE status <> 'completed'",
    );
    expect(left?.n).toBe(0);
  });
});
