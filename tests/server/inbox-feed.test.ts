import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { intakeId, startChat } from "../support/agent-api";
import { apiClient } from "../support/api-client";
import { openInboxFeed } from "../support/inbox-feed";
import { type PostgresCluster, startPostgres } from "../support/postgres";
import { type ServerProcess, startServer } from "../support/server-process";

let cluster: PostgresCluster | undefined;
const servers: ServerProcess[] = [];

beforeAll(async () => {
  cluster = await startPostgres("inbox_feed");
  const url = await cluster.createDatabase("inbox_feed_1");
  // The first process migrates; the second starts after it.
  servers.push(await startServer({ env: { DATABASE_URL: url } }));
  servers.push(await startServer({ env: { DATABASE_URL: url } }));
}, 120_000);

afterAll(async () => {
  await Promise.all(servers.splice(0).map((started) => started.kill()));
  await cluster?.stop();
});

describe("the inbox feed across two processes on one PostgreSQL", { timeout: 120_000 }, () => {
  it("hears a call start waiting and leave, settled by the other process, within a second", async () => {
    const [first, second] = servers;
    if (!first || !second) throw new Error("the servers did not start");
    const feed = await openInboxFeed(first.url, "grace");
    try {
      await feed.next((event) => event.kind === "synced");
      // The run starts, parks and posts its intake on the second process.
      const turn = await startChat(apiClient(second.url, "grace"), "refactorer", "Refactor the lexer");
      const callId = intakeId(turn.runId);
      const parkedAt = performance.now();
      const waiting = await feed.next((event) => event.kind === "waiting" && event.call.id === callId, 5_000);
      expect(waiting.at - parkedAt).toBeLessThan(1_000);

      const settling = performance.now();
      const answer = await apiClient(second.url, "grace").post("/agent/tool-call/answer", {
        toolCallId: callId,
      });
      const answered = performance.now();
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const settled = await feed.next((event) => event.kind === "settled" && event.id === callId, 5_000);
      expect(settled.event).toEqual({
        kind: "settled",
        id: callId,
        threadId: turn.threadId,
        status: "answered",
      });
      // The feed's own poll is ten seconds: under a second is the notification's doing.
      expect(settled.at - answered).toBeLessThan(1_000);
      expect(settled.at - settling).toBeLessThan(2_000);
    } finally {
      await feed.close();
    }
  });
});
