import type { InboxEvent, PendingCall, ThreadSummary } from "prepick/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openInboxFeed } from "../tests/support/inbox-feed";
import type { PrepickServer } from "./server";
import { call, chat, follow, startServer } from "./testing/harness";
import { operator, refactorer } from "./testing/test-agents";

let server: PrepickServer;

beforeAll(async () => {
  server = await startServer({ agents: [refactorer, operator] });
}, 60_000);
afterAll(async () => {
  await server.close();
}, 60_000);

/** Starts a refactorer thread, which parks on its intake; returns the thread and the intake's id. */
async function waitingThread(actor: string, text: string) {
  const turn = await chat(server, actor, text, { agent: "refactorer" });
  expect(turn.frames.at(-1)?.frame.kind).toBe("run-parked");
  return { threadId: turn.threadId, runId: turn.runId, callId: `intake-${turn.runId}` };
}

/** Reads every page of a list, running `between` after each page but the last. */
async function readAllPages<Row>(
  actor: string,
  path: string,
  key: "threads" | "approvals",
  limit: number,
  between: (page: number) => Promise<void> = async () => undefined,
): Promise<Row[][]> {
  const pages: Row[][] = [];
  let cursor: string | null = null;
  do {
    const query: string = `?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
    const response = await call(server, "GET", `${path}${query}`, actor);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    pages.push(response.body[key] as Row[]);
    cursor = response.body.nextCursor as string | null;
    if (cursor) await between(pages.length);
  } while (cursor);
  return pages;
}

describe("GET /agent/threads", { timeout: 60_000 }, () => {
  it("lists the actor's threads newest activity first, with agent, title and waiting count", async () => {
    const first = await waitingThread("tess", "Refactor the lexer");
    const long = `Tidy 📦 ${"the parser and ".repeat(10)}end`;
    const second = await waitingThread("tess", long);
    const listed = await call(server, "GET", "/agent/threads", "tess");
    expect(listed.status).toBe(200);
    const threads = listed.body.threads as ThreadSummary[];
    expect(threads.map(({ id }) => id)).toEqual([second.threadId, first.threadId]);
    expect(threads[1]).toMatchObject({ agent: "refactorer", title: "Refactor the lexer", waiting: 1 });
    const title = threads[0]?.title ?? "";
    expect(Array.from(title)).toHaveLength(60);
    expect(title.startsWith("Tidy 📦 the parser")).toBe(true);
    expect(title.endsWith("…")).toBe(true);
    expect(listed.body.nextCursor).toBeNull();

    // Answering settles the intake: the count drops to 0 and the run goes on.
    const answered = await call(server, "POST", "/agent/tool-call/answer", "tess", {
      toolCallId: first.callId,
    });
    expect(answered.status).toBe(200);
    await follow(server, "tess", first.runId, 0, "?follow=all");
    // A new turn is new activity: the first thread comes back to the top.
    const again = await chat(server, "tess", "And the printer", { threadId: first.threadId });
    expect(again.status).toBe(200);
    const relisted = (await call(server, "GET", "/agent/threads", "tess")).body.threads as ThreadSummary[];
    expect(relisted.map(({ id, waiting }) => [id, waiting])).toEqual([
      [first.threadId, 0],
      [second.threadId, 1],
    ]);
    expect(Date.parse(relisted[0]?.lastActiveAt ?? "")).toBeGreaterThan(
      Date.parse(relisted[1]?.lastActiveAt ?? ""),
    );
  });

  it("pages without a repeat or a gap while threads start and take turns", async () => {
    const actor = "paula";
    const existing: string[] = [];
    for (let index = 0; index < 7; index++)
      existing.push((await waitingThread(actor, `Thread ${index}`)).threadId);
    const oldest = existing[0] ?? "";
    const pages = await readAllPages<ThreadSummary>(actor, "/agent/threads", "threads", 2, async (page) => {
      // A new thread, and (once) a new turn on the oldest thread, which is still on a later page.
      await waitingThread(actor, `Started while paging ${page}`);
      if (page === 1) {
        const turn = (await call(server, "GET", "/agent/approvals?limit=200", actor)).body
          .approvals as PendingCall[];
        const intake = turn.find((row) => row.threadId === oldest);
        await call(server, "POST", "/agent/tool-call/skip", actor, { toolCallId: intake?.id });
        await follow(server, actor, intake?.runId ?? "", 0, "?follow=all");
        expect((await chat(server, actor, "Another turn", { threadId: oldest })).status).toBe(200);
      }
    });
    expect(pages.map((page) => page.length)).toEqual([2, 2, 2, 1]);
    const ids = pages.flat().map(({ id }) => id);
    expect(ids).toEqual([...existing].reverse());

    // A fresh listing sees what happened meanwhile: the oldest thread's new turn (after the first
    // page) comes before the threads older than it, after the two started later.
    const fresh = (await call(server, "GET", "/agent/threads?limit=200", actor)).body
      .threads as ThreadSummary[];
    expect(fresh).toHaveLength(10);
    expect(fresh.slice(0, 4).map(({ title }) => title)).toEqual([
      "Started while paging 3",
      "Started while paging 2",
      "Thread 0",
      "Started while paging 1",
    ]);
    expect(fresh[2]?.id).toBe(oldest);
  });
});

describe("GET /agent/approvals", { timeout: 60_000 }, () => {
  it("carries each call's thread, agent, asked time and the question set or tool call as posted", async () => {
    const intake = await waitingThread("quinn", "Refactor the cache");
    const purge = await chat(server, "quinn", "Please purge the cache", { agent: "operator" });
    const listed = await call(server, "GET", "/agent/approvals", "quinn");
    const rows = listed.body.approvals as PendingCall[];
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      id: intake.callId,
      threadId: intake.threadId,
      runId: intake.runId,
      agent: "refactorer",
      name: "ask",
      toolType: "action",
      status: "pending_approval",
      posted: { kind: "elicitation", id: intake.callId, request: { source: "intake" } },
    });
    const questions = rows[0]?.posted.kind === "elicitation" ? rows[0].posted.request.questions : [];
    expect(questions.map(({ id }) => id)).toEqual(["scope", "tests"]);
    expect(rows[1]).toMatchObject({
      threadId: purge.threadId,
      agent: "operator",
      name: "purge_cache",
      posted: { kind: "approval-request", toolName: "purge_cache", input: {} },
    });
    expect(Date.parse(rows[0]?.askedAt ?? "")).toBeLessThanOrEqual(Date.parse(rows[1]?.askedAt ?? ""));
    expect(listed.body.nextCursor).toBeNull();
  });

  it("pages oldest first without a repeat or a gap while calls start waiting and settle", async () => {
    const actor = "rita";
    const waiting: string[] = [];
    for (let index = 0; index < 5; index++)
      waiting.push((await waitingThread(actor, `Call ${index}`)).callId);
    const added: string[] = [];
    const settled = waiting[4] ?? "";
    const pages = await readAllPages<PendingCall>(actor, "/agent/approvals", "approvals", 2, async (page) => {
      added.push((await waitingThread(actor, `Added while paging ${page}`)).callId);
      if (page === 1) {
        expect(
          (await call(server, "POST", "/agent/tool-call/skip", actor, { toolCallId: settled })).status,
        ).toBe(200);
      }
    });
    const ids = pages.flat().map(({ id }) => id);
    expect(new Set(ids).size).toBe(ids.length);
    // Everything that waited throughout, in the order it started waiting, then what was added.
    expect(ids.filter((id) => id !== settled)).toEqual([...waiting.filter((id) => id !== settled), ...added]);
    expect(ids).not.toContain(settled);
  });

  it("answers 400 naming the field for a bad limit or cursor", async () => {
    for (const [query, field] of [
      ["limit=0", "limit"],
      ["limit=201", "limit"],
      ["limit=ten", "limit"],
      ["limit=2.5", "limit"],
      ["cursor=not-a-cursor", "cursor"],
      ["cursor=", "cursor"],
    ] as const) {
      for (const path of ["/agent/approvals", "/agent/threads"]) {
        const response = await call(server, "GET", `${path}?${query}`, "sam");
        expect(response.status, `${path}?${query}`).toBe(400);
        expect(response.body).toMatchObject({ field });
        expect(String(response.body.error)).toMatch(new RegExp(`^${field} must`));
      }
    }
    // A cursor of one list is refused by the other.
    await waitingThread("sam", "One");
    await waitingThread("sam", "Two");
    const threads = await call(server, "GET", "/agent/threads?limit=1", "sam");
    const approvalsWithIt = await call(
      server,
      "GET",
      `/agent/approvals?cursor=${encodeURIComponent(String(threads.body.nextCursor))}`,
      "sam",
    );
    expect(approvalsWithIt.status).toBe(400);
    expect(approvalsWithIt.body).toMatchObject({ field: "cursor" });
    const stream = await call(server, "GET", "/agent/approvals/stream?after=soon", "sam");
    expect(stream.status).toBe(400);
    expect(stream.body).toMatchObject({ field: "after", value: "soon" });
  });
});

describe("ownership", { timeout: 60_000 }, () => {
  it("never shows another actor's threads or calls, even through their cursor", async () => {
    await waitingThread("uma", "Uma's first");
    await waitingThread("uma", "Uma's second");
    const umaThreads = await call(server, "GET", "/agent/threads?limit=1", "uma");
    const umaCalls = await call(server, "GET", "/agent/approvals?limit=1", "uma");
    expect(umaThreads.body.nextCursor).not.toBeNull();
    const victor = await waitingThread("victor", "Victor's own");
    for (const path of [
      "/agent/threads",
      `/agent/threads?cursor=${encodeURIComponent(String(umaThreads.body.nextCursor))}`,
    ]) {
      const threads = (await call(server, "GET", path, "victor")).body.threads as ThreadSummary[];
      expect(threads.every(({ id }) => id === victor.threadId)).toBe(true);
    }
    for (const path of [
      "/agent/approvals",
      `/agent/approvals?cursor=${encodeURIComponent(String(umaCalls.body.nextCursor))}`,
    ]) {
      const rows = (await call(server, "GET", path, "victor")).body.approvals as PendingCall[];
      expect(rows.every(({ id }) => id === victor.callId)).toBe(true);
    }
    const feed = await openInboxFeed(server.url, "victor");
    try {
      await feed.next((event) => event.kind === "synced");
      const waiting = feed.events.flatMap(({ event }) => (event.kind === "waiting" ? [event.call.id] : []));
      expect(waiting).toEqual([victor.callId]);
      // Uma's new call and its settlement never reach Victor's feed.
      const umaThird = await waitingThread("uma", "Uma's third");
      await call(server, "POST", "/agent/tool-call/skip", "uma", { toolCallId: umaThird.callId });
      const victorSecond = await waitingThread("victor", "Victor's second");
      const next = await feed.next(
        (event) => event.kind === "waiting" && event.call.id === victorSecond.callId,
      );
      const seen = feed.events
        .slice(0, feed.events.indexOf(next) + 1)
        .map(({ event }) => JSON.stringify(event));
      expect(seen.some((text) => text.includes(umaThird.callId) || text.includes(umaThird.threadId))).toBe(
        false,
      );
    } finally {
      await feed.close();
    }
  });
});

describe("GET /agent/approvals/stream", { timeout: 60_000 }, () => {
  const kindOf = (event: InboxEvent) => event.kind;

  it("opens with what waits now, follows changes live, and resumes after Last-Event-ID", async () => {
    const actor = "wren";
    const before = await waitingThread(actor, "Waiting before the feed");
    const feed = await openInboxFeed(server.url, actor);
    let synced: string | undefined;
    try {
      const sync = await feed.next((event) => event.kind === "synced");
      expect(feed.events.map(({ event }) => kindOf(event))).toEqual(["waiting", "synced"]);
      expect(feed.events[0]).toMatchObject({
        id: undefined,
        event: { call: { id: before.callId, agent: "refactorer" } },
      });
      expect(sync.id).toMatch(/^\d+$/);

      const later = await waitingThread(actor, "Waiting after the feed opened");
      const started = await feed.next((event) => event.kind === "waiting" && event.call.id === later.callId);
      expect(Number(started.id)).toBeGreaterThan(Number(sync.id));

      const answered = await call(server, "POST", "/agent/tool-call/answer", actor, {
        toolCallId: before.callId,
      });
      expect(answered.status).toBe(200);
      const left = await feed.next((event) => event.kind === "settled" && event.id === before.callId);
      expect(left.event).toEqual({
        kind: "settled",
        id: before.callId,
        threadId: before.threadId,
        status: "answered",
      });
      synced = started.id;
    } finally {
      await feed.close();
    }

    // Resuming after the "waiting" event replays only the settlement since, then syncs.
    const resumed = await openInboxFeed(server.url, actor, synced);
    try {
      await resumed.next((event) => event.kind === "synced");
      expect(resumed.events.map(({ event }) => event)).toEqual([
        { kind: "settled", id: before.callId, threadId: before.threadId, status: "answered" },
        { kind: "synced" },
      ]);
    } finally {
      await resumed.close();
    }
  });
});
