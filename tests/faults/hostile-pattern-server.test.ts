import type { ElicitationFrame } from "prepick/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { framesOf, startChat } from "../support/agent-api";
import { type ApiResponse, apiClient } from "../support/api-client";
import { seededPgliteFolder } from "../support/pglite-folder";
import { type ServerProcess, startServer } from "../support/server-process";
import { removeTempFolders, tempFolder } from "../support/temp-folder";
import { HOSTILE_PATTERN, HOSTILE_VALUE, MATCHING_VALUE } from "./support/hostile-pattern";

// The server runs in a process of its own and every answer has a deadline: a matcher that
// backtracked on the pattern would stall that process, and the request fail here, where matching
// in this worker would hang the whole run instead.
const DEADLINE_MS = 30_000;

let server: ServerProcess | undefined;

beforeAll(async () => {
  server = await startServer({
    env: {
      PREPICK_DATA_DIR: await seededPgliteFolder(tempFolder()),
      PREPICK_AGENTS_MODULE: "tests/faults/support/hostile-agents.ts",
    },
  });
}, 60_000);

afterAll(async () => {
  await server?.kill();
  removeTempFolders();
});

/** Answers `code` with `value`, failing with a sentence if the server does not return in time. */
async function answer(url: string, toolCallId: string, value: string): Promise<ApiResponse> {
  try {
    return await apiClient(url, "ada", DEADLINE_MS).post("/agent/tool-call/answer", {
      toolCallId,
      answers: { code: [value] },
    });
  } catch (error) {
    if ((error as Error).name !== "TimeoutError") throw error;
    throw new Error(
      `The answer endpoint did not return within ${DEADLINE_MS} ms matching ${HOSTILE_PATTERN}`,
    );
  }
}

describe("a model-authored pattern built for catastrophic backtracking", { timeout: 120_000 }, () => {
  it("is matched against a long answer by the answer endpoint, which returns", async () => {
    if (!server) throw new Error("the server did not start");
    const turn = await startChat(apiClient(server.url, "ada"), "hostile", "Ask me for a code");
    const asked = framesOf(turn.frames, "elicitation")[0] as ElicitationFrame | undefined;
    expect(asked?.request.questions[0]?.input?.pattern).toBe(HOSTILE_PATTERN);
    const toolCallId = asked?.id ?? "";

    const refused = await answer(server.url, toolCallId, HOSTILE_VALUE);
    expect(refused.status).toBe(400);
    expect((refused.body as { issues: unknown }).issues).toEqual([
      expect.objectContaining({ questionId: "code", message: expect.stringContaining('answers["code"]') }),
    ]);

    const accepted = await answer(server.url, toolCallId, MATCHING_VALUE);
    expect(accepted.status, JSON.stringify(accepted.body).slice(0, 300)).toBe(200);
    expect((accepted.body as { output: { answers: Record<string, string[]> } }).output.answers.code).toEqual([
      MATCHING_VALUE,
    ]);
  });
});
