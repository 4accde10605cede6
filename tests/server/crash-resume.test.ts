import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import {
  checkpointNames,
  followRun,
  framesOf,
  intakeCheckpoints,
  intakeId,
  lastSeq,
  settledOutput,
  startChat,
} from "../support/agent-api";
import { apiClient } from "../support/api-client";
import { seededPgliteFolder } from "../support/pglite-folder";
import { type ServerProcess, startServer } from "../support/server-process";
import { removeTempFolders, tempFolder } from "../support/temp-folder";

const servers: ServerProcess[] = [];

async function server(env: Record<string, string>): Promise<ServerProcess> {
  const started = await startServer({ env });
  servers.push(started);
  return started;
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((started) => started.kill()));
});

afterAll(() => removeTempFolders());

describe("a run parked on PGlite on disk", { timeout: 120_000 }, () => {
  it("survives a SIGKILL: a new process accepts the answer and finishes the run", async () => {
    const dataDir = await seededPgliteFolder(join(tempFolder(), "store"));
    const first = await server({ PREPICK_DATA_DIR: dataDir });
    const turn = await startChat(apiClient(first.url, "ada"), "refactorer", "Refactor the parser");
    expect(turn.runId).not.toBe("");
    const [elicitation] = framesOf(turn.frames, "elicitation");
    expect(elicitation?.id).toBe(intakeId(turn.runId));
    expect(elicitation?.request.questions.map((question) => question.id).slice(0, 2)).toEqual([
      "scope",
      "tests",
    ]);
    expect(turn.frames.at(-1)?.frame).toEqual({ kind: "run-parked", waitingFor: [intakeId(turn.runId)] });

    await first.kill("SIGKILL");
    expect((await first.exited).signal).toBe("SIGKILL");

    const second = await server({ PREPICK_DATA_DIR: dataDir });
    const ada = apiClient(second.url, "ada");
    const answer = await ada.post("/agent/tool-call/answer", { toolCallId: intakeId(turn.runId) });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(settledOutput(answer.body)).toMatchObject({
      answers: { scope: ["module"], tests: ["unit"] },
      skipped: false,
      defaulted: elicitation?.request.questions.map((question) => question.id),
    });

    const rest = await followRun(ada, turn.runId, lastSeq(turn.frames));
    expect(rest[0]?.seq).toBe(lastSeq(turn.frames) + 1);
    expect(rest[0]?.frame).toEqual({
      kind: "tool-output",
      id: intakeId(turn.runId),
      output: settledOutput(answer.body),
    });
    expect(rest.at(-1)?.frame).toEqual({ kind: "run-finish", status: "completed" });
    expect(framesOf(rest, "run-finish")).toHaveLength(1);

    const names = await checkpointNames(ada, turn.runId);
    expect(names.slice(0, 5)).toEqual(intakeCheckpoints(turn.runId));
    expect(new Set(names).size).toBe(names.length);
  });
});

describe("a crash between a side-effecting tool's work and its checkpoint", { timeout: 150_000 }, () => {
  it("does not run the tool again when another process resumes the run", async () => {
    const dataDir = await seededPgliteFolder(join(tempFolder(), "store"));
    const first = await server({ PREPICK_DATA_DIR: dataDir });
    const turn = await startChat(apiClient(first.url, "ada"), "operator", "Please purge the images cache");
    const [request] = framesOf(turn.frames, "approval-request");
    expect(request?.toolName).toBe("purge_cache");
    const callId = request?.id ?? "";
    expect(turn.frames.at(-1)?.frame).toEqual({ kind: "run-parked", waitingFor: [callId] });
    await first.kill("SIGKILL");

    // This process runs the tool once approved, then dies before `persist:toolexec` is written.
    const crashing = await server({
      PREPICK_DATA_DIR: dataDir,
      PREPICK_CRASH_BEFORE: `persist:toolexec:${callId}`,
      PREPICK_LEASE_MS: "1000",
    });
    const approve = await apiClient(crashing.url, "ada")
      .post("/agent/tool-call/approve", { toolCallId: callId })
      .catch((error: Error) => ({ status: 0, body: error.message }));
    // The approval may answer before the worker reaches the tool, or the kill may cut it off.
    expect([0, 200], JSON.stringify(approve.body)).toContain(approve.status);
    const crash = await Promise.race([
      crashing.exited,
      new Promise<never>((_, reject) =>
        setTimeout(
          () => reject(new Error(`The server did not crash at persist:toolexec${crashing.stderr()}`)),
          15_000,
        ),
      ),
    ]);
    expect(crash.signal).toBe("SIGKILL");

    // The crashed process held the run's lease; the next one takes the run over once it expires.
    const last = await server({ PREPICK_DATA_DIR: dataDir });
    const ada = apiClient(last.url, "ada");
    const rest = await followRun(ada, turn.runId, lastSeq(turn.frames), undefined, 60_000);
    expect(framesOf(rest, "tool-output").filter((frame) => frame.id === callId)).toEqual([]);
    const errors = framesOf(rest, "tool-error").filter((frame) => frame.id === callId);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.error).toMatch(/not run again/);
    expect(rest.at(-1)?.frame).toEqual({ kind: "run-finish", status: "completed" });

    const names = await checkpointNames(ada, turn.runId);
    expect(names.filter((name) => name === `persist:toolexec:${callId}`)).toHaveLength(1);
    expect(names.filter((name) => name === `persist:toolcall:${callId}`)).toHaveLength(1);
    expect(new Set(names).size).toBe(names.length);
  });
});
