import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  checkpointNames,
  followRun,
  framesOf,
  intakeCheckpoints,
  intakeId,
  settledOutput,
  startChat,
} from "../support/agent-api";
import { apiClient } from "../support/api-client";
import { type PostgresCluster, startPostgres } from "../support/postgres";
import { type ServerProcess, startServer } from "../support/server-process";

let cluster: PostgresCluster | undefined;
const servers: ServerProcess[] = [];
let databases = 0;

beforeAll(async () => {
  cluster = await startPostgres("scale_out");
});

afterEach(async () => {
  await Promise.all(servers.splice(0).map((started) => started.kill()));
});

afterAll(async () => {
  await cluster?.stop();
});

/** Two server processes sharing one fresh database. */
async function twoProcesses(): Promise<[ServerProcess, ServerProcess]> {
  if (!cluster) throw new Error("the PostgreSQL cluster did not start");
  databases += 1;
  const url = await cluster.createDatabase(`scale_out_${databases}`);
  // The first process migrates; starting the second after it keeps the test about the run.
  const first = await startServer({ env: { DATABASE_URL: url } });
  servers.push(first);
  const second = await startServer({ env: { DATABASE_URL: url } });
  servers.push(second);
  return [first, second];
}

describe("two server processes on one PostgreSQL", { timeout: 120_000 }, () => {
  it("finishes a run exactly once when one process parks it and the other takes the answer", async () => {
    const [first, second] = await twoProcesses();
    const onFirst = apiClient(first.url, "grace");
    const onSecond = apiClient(second.url, "grace");
    const turn = await startChat(onFirst, "refactorer", "Refactor the lexer");
    expect(turn.frames.at(-1)?.frame.kind).toBe("run-parked");

    const answer = await onSecond.post("/agent/tool-call/answer", {
      toolCallId: intakeId(turn.runId),
      answers: { scope: ["file"] },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const questionIds = framesOf(turn.frames, "elicitation")[0]?.request.questions.map(({ id }) => id) ?? [];
    expect(settledOutput(answer.body)).toMatchObject({
      answers: { scope: ["file"], tests: ["unit"] },
      defaulted: questionIds.filter((id) => id !== "scope"),
    });

    // Read the whole run from the process that did not take the answer.
    const frames = await followRun(onFirst, turn.runId, 0);
    expect(framesOf(frames, "tool-output")).toEqual([
      { kind: "tool-output", id: intakeId(turn.runId), output: settledOutput(answer.body) },
    ]);
    expect(framesOf(frames, "run-finish")).toEqual([{ kind: "run-finish", status: "completed" }]);
    expect(frames.map(({ seq }) => seq)).toEqual(frames.map((_, index) => index + 1));

    const names = await checkpointNames(onSecond, turn.runId);
    expect(names.slice(0, 5)).toEqual(intakeCheckpoints(turn.runId));
    expect(new Set(names).size).toBe(names.length);
    expect(await checkpointNames(onFirst, turn.runId)).toEqual(names);
  });

  it("settles a hundred concurrent answers and skips across both processes once: one 200, ninety-nine 409s", async () => {
    const [first, second] = await twoProcesses();
    const clients = [apiClient(first.url, "grace"), apiClient(second.url, "grace")] as const;
    const turn = await startChat(clients[0], "refactorer", "Refactor the printer");
    const toolCallId = intakeId(turn.runId);

    const responses = await Promise.all(
      Array.from({ length: 100 }, (_, index) =>
        index % 4 === 0
          ? clients[index % 2]?.post("/agent/tool-call/skip", { toolCallId })
          : clients[index % 2]?.post("/agent/tool-call/answer", {
              toolCallId,
              answers: { scope: [index % 3 === 0 ? "file" : "module"] },
            }),
      ),
    );
    const statuses = responses.map((response) => response?.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(99);
    const winner = settledOutput(responses.find((response) => response?.status === 200)?.body);
    for (const response of responses) expect(settledOutput(response?.body)).toEqual(winner);

    const frames = await followRun(clients[1], turn.runId, 0);
    expect(framesOf(frames, "tool-output")).toEqual([
      { kind: "tool-output", id: toolCallId, output: winner },
    ]);
    expect(framesOf(frames, "run-finish")).toHaveLength(1);
    const names = await checkpointNames(clients[0], turn.runId);
    expect(names.filter((name) => name.startsWith("signal:"))).toEqual([
      `signal:tool:${turn.runId}:${toolCallId}`,
    ]);
  });

  it("settles a hundred concurrent approvals and rejections across both processes once", async () => {
    const [first, second] = await twoProcesses();
    const clients = [apiClient(first.url, "grace"), apiClient(second.url, "grace")] as const;
    const turn = await startChat(clients[0], "operator", "Purge the pages cache");
    const toolCallId = framesOf(turn.frames, "approval-request")[0]?.id ?? "";

    const responses = await Promise.all(
      Array.from({ length: 100 }, (_, index) =>
        clients[index % 2]?.post(`/agent/tool-call/${index % 3 === 0 ? "reject" : "approve"}`, {
          toolCallId,
        }),
      ),
    );
    const statuses = responses.map((response) => response?.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(99);

    const frames = await followRun(clients[1], turn.runId, 0);
    const settling = frames.filter(
      ({ frame }) =>
        (frame.kind === "tool-output" || frame.kind === "tool-denied") && frame.id === toolCallId,
    );
    expect(settling).toHaveLength(1);
    expect(framesOf(frames, "run-finish")).toHaveLength(1);
    const names = await checkpointNames(clients[0], turn.runId);
    expect(names.filter((name) => name.startsWith("signal:"))).toEqual([
      `signal:tool:${turn.runId}:${toolCallId}`,
    ]);
  });
});
