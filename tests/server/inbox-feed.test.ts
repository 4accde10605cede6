import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { intakeId, startChat } from "../support/agent-api";
import { apiClient } from "../support/api-client";
import { openInboxFeed } from "../support/inbox-feed";
import { type PostgresCluster, startPostgres } from "../support/postgres";
import { type ServerProcess, startServer } from "../support/server-process";

// The feed's own poll is set to an hour here, and every wait below ends long before it: an event
// that arrives came by the store's notification, whatever the machine's load.
const POLL_MS = 3_600_000;
const WAIT_MS = 60_000;

let cluster: PostgresCluster | undefined;
const servers: ServerProcess[] = [];

beforeAll(async () => {
  cluster = await startPostgres("inbox_feed");
  const url = await cluster.createDatabase("inbox_feed_1");
  // The first process migrates; the second starts after it.
  const env = { DATABASE_URL: url, PREPICK_INBOX_POLL_MS: String(POLL_MS) };
  servers.push(await startServer({ env }));
  servers.push(await startServer({ env }));
}, 120_000);

afterAll(async () => {
  await Promise.all(servers.splice(0).map((started) => started.kill()));
  await cluster?.stop();
});

describe("the inbox feed across two processes on one PostgreSQL", { timeout: 120_000 }, () => {
  it("hears a call start waiting and leave, settled by the other process, by notification", async () => {
    const [first, second] = servers;
    if (!first || !second) throw new Error("the servers did not start");
    const feed = await openInboxFeed(first.url, "grace");
    try {
      await feed.next((event) => event.kind === "synced");
      // The run starts, parks and posts its intake on the second process.
      const turn = await startChat(apiClient(second.url, "grace"), "refactorer", "Refactor the lexer");
      const callId = intakeId(turn.runId);
      const waiting = await feed.next(
        (event) => event.kind === "waiting" && event.call.id === callId,
        WAIT_MS,
      );
      expect(waiting.event).toMatchObject({ kind: "waiting", call: { id: callId } });

      const answer = await apiClient(second.url, "grace").post("/agent/tool-call/answer", {
        toolCallId: callId,
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const settled = await feed.next((event) => event.kind === "settled" && event.id === callId, WAIT_MS);
      expect(settled.event).toEqual({
        kind: "settled",
        id: callId,
        threadId: turn.threadId,
        status: "answered",
      });
    } finally {
      await feed.close();
    }
  });
});
