import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "./database/database";
import { openDatabase } from "./database/open-database";
import type { PrepickServer } from "./server";
import { call, chat, follow, kinds, startServer, usageCount } from "./testing/harness";
import { refactorer } from "./testing/test-agents";

let db: Database;
let one: PrepickServer;
let two: PrepickServer;

beforeAll(async () => {
  db = await openDatabase();
  one = await startServer({ agents: [refactorer], database: db });
  two = await startServer({ agents: [refactorer], database: db });
}, 60_000);
afterAll(async () => {
  await one.close();
  await two.close();
  await db.close();
}, 60_000);

describe("two servers sharing one store", () => {
  it("accepts the answer on either and resumes the run exactly once", async () => {
    const run = await chat(one, "ada", "Refactor the parser");
    const parkedAt = run.frames.at(-1)?.seq ?? 0;
    const answered = await call(two, "POST", "/agent/tool-call/answer", "ada", {
      toolCallId: `intake-${run.runId}`,
    });
    expect(answered.status).toBe(200);
    const onOne = await follow(one, "ada", run.runId, parkedAt);
    const onTwo = await follow(two, "ada", run.runId, parkedAt);
    expect(onTwo).toEqual(onOne);
    expect(kinds(onOne).filter((kind) => kind === "tool-output")).toHaveLength(1);
    expect(kinds(onOne).filter((kind) => kind === "run-finish")).toHaveLength(1);
    const journal = await call(one, "GET", `/agent/runs/${run.runId}/checkpoints`, "ada");
    const names = journal.body.checkpoints as string[];
    expect(new Set(names).size).toBe(names.length);
    expect(await usageCount(one, run.runId)).toBe(1);
  });
});
