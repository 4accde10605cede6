import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrepickServer } from "../../server/server";
import { startServer } from "../../server/testing/harness";
import { plain } from "../../server/testing/test-agents";
import { openInboxFeed } from "../support/inbox-feed";
import { waitFor } from "../support/wait-for";

/** Every event of a fresh feed of `actor` up to and with its `synced`; the feed is closed then. */
async function snapshotOf(url: string, actor: string) {
  const feed = await openInboxFeed(url, actor);
  try {
    await feed.next((event) => event.kind === "synced", 30_000);
    return feed.events.map(({ event }) => event);
  } finally {
    await feed.close();
  }
}

// One actor with many waiting calls opens 200 inbox feeds and reads none of them, while another
// actor goes on with its own requests. Feeds past the per-actor cap are refused at once (429), the
// ones taken are read from the store only as fast as their client reads them, and the other
// actor's requests are answered meanwhile: counted within a window, not timed one by one.
const WAITING = 1_000;
const FEEDS = 200;
const WINDOW_MS = 10_000;
const AT_LEAST = 10;

let server: PrepickServer;

beforeAll(async () => {
  server = await startServer({ agents: [plain] });
  // A thread parked on a thousand question sets of about 2 KB each, straight into the store.
  const { db } = server.store;
  await db.query("INSERT INTO prepick_threads (id, actor_id, agent) VALUES ('hog-thread', 'hog', 'plain')");
  await db.query(
    `INSERT INTO prepick_runs (id, thread_id, actor_id, agent, turn, message_id, user_message, status)
     VALUES ('hog-run', 'hog-thread', 'hog', 'plain', 0, 'hog-msg',
       '{"id":"u","role":"user","parts":[{"type":"text","text":"Go"}]}', 'parked')`,
  );
  await db.query(
    `INSERT INTO prepick_tool_calls (id, run_id, thread_id, actor_id, name, tool_type, status, input)
     SELECT 'hog-call-' || n, 'hog-run', 'hog-thread', 'hog', 'ask', 'action', 'pending_approval',
       jsonb_build_object('source', 'ask', 'questions', jsonb_build_array(jsonb_build_object(
         'id', 'q', 'prompt', repeat('Which one? ', 180),
         'options', jsonb_build_array(jsonb_build_object('value', 'a', 'label', 'A', 'hotkey', 'a')),
         'defaults', jsonb_build_array('a'))))
     FROM generate_series(1, $1::int) AS n`,
    [WAITING],
  );
}, 60_000);

afterAll(async () => {
  await server?.close();
}, 60_000);

describe("an actor holding many inbox feeds", { timeout: 120_000 }, () => {
  it("is capped, and another actor's requests are answered while the feeds it holds stay unread", async () => {
    // The cap holds for a feed that is read, too: the first feed sends everything that waits.
    const first = await snapshotOf(server.url, "hog");
    expect(first.filter((event) => event.kind === "waiting")).toHaveLength(WAITING);

    const feeds = await Promise.all(
      Array.from({ length: FEEDS }, () =>
        fetch(`${server.url}/agent/approvals/stream`, { headers: { "x-actor-id": "hog" } }),
      ),
    );
    const open = feeds.filter((response) => response.status === 200);
    const refused = feeds.filter((response) => response.status === 429);
    expect(open.length).toBeGreaterThan(0);
    expect(open.length).toBeLessThanOrEqual(8);
    expect(refused).toHaveLength(FEEDS - open.length);
    expect(refused.every((response) => Number(response.headers.get("retry-after")) > 0)).toBe(true);
    const body = (await refused[0]?.json()) as { error: string; field: string };
    expect(body.field).toBe("feeds");
    expect(body.error).toContain("inbox feeds open");
    // The open feeds are left unread: each holds what its connection buffers, no more.

    let answered = 0;
    const until = Date.now() + WINDOW_MS;
    while (Date.now() < until) {
      const path = answered % 2 === 0 ? "/agent/threads" : "/agent/approvals";
      const response = await fetch(`${server.url}${path}`, {
        headers: { "x-actor-id": "bob" },
        signal: AbortSignal.timeout(WINDOW_MS),
      }).catch(() => undefined);
      if (response?.status === 200) {
        await response.json();
        answered += 1;
      }
      if (answered >= AT_LEAST) break;
    }
    expect(answered).toBeGreaterThanOrEqual(AT_LEAST);

    for (const response of open) await response.body?.cancel();
    // The places come back as the feeds end: the actor may open a feed again.
    const again = await waitFor("a feed to be free again", () =>
      snapshotOf(server.url, "hog").catch(() => undefined),
    );
    expect(again.filter((event) => event.kind === "waiting")).toHaveLength(WAITING);
  });

  it("sends a reader whose Last-Event-ID is past the actor's latest version what waits now, anew", async () => {
    // As after a restore from a backup: the reader's version was never this store's.
    const feed = await openInboxFeed(server.url, "hog", "999999");
    try {
      const synced = await feed.next((event) => event.kind === "synced", 30_000);
      expect(synced.id).toBe(String(WAITING));
      const events = feed.events.map(({ event }) => event.kind);
      expect(events[0]).toBe("reset");
      expect(events.filter((kind) => kind === "waiting")).toHaveLength(WAITING);
    } finally {
      await feed.close();
    }
  });
});
