import type { ThreadSummary } from "prepick/core";
import type { Database } from "../database/database";
import { toThread } from "./read-rows";
import type { ThreadRow, UserMessage } from "./rows";
import { threadTitle } from "./thread-title";

/**
 * Where a page of threads ends, in the database's own timestamp text (microseconds, with the
 * offset), so the next page starts exactly after it.
 */
export interface ThreadCursor {
  /** The moment the first page was read: later turns and threads wait for a fresh first page. */
  asOf: string;
  /** The last thread's activity. */
  activeAt: string;
  /** The last thread's id, which breaks ties. */
  id: string;
}

/** A page of threads and the cursor after its last one (undefined at the end). */
export interface ThreadPage {
  /** The threads, newest activity first. */
  threads: ThreadSummary[];
  /** Where the next page starts, when there is one. */
  next: ThreadCursor | undefined;
}

/** The threads: one actor's conversation with one agent. `RunStore.start` creates them. */
export class ThreadStore {
  /** @param db The store's database. */
  constructor(private readonly db: Database) {}

  /** A thread by id. */
  async get(threadId: string): Promise<ThreadRow | undefined> {
    const rows = await this.db.query("SELECT * FROM prepick_threads WHERE id = $1", [threadId]);
    return rows[0] ? toThread(rows[0]) : undefined;
  }

  /**
   * The actor's threads, newest activity (the latest turn's start) first, `limit` at most, after
   * `cursor`. Every page of one listing reads the threads as they stood when its first page was
   * read (`asOf`): a thread that gets a new turn meanwhile keeps its place, and one started
   * meanwhile waits for the next listing, so pages never repeat or skip a thread.
   */
  async page(actorId: string, limit: number, cursor?: ThreadCursor): Promise<ThreadPage> {
    const rows = await this.db.query(
      `WITH snapshot AS (SELECT coalesce($2::timestamptz, now()) AS as_of),
       waiting AS (
         SELECT thread_id, count(*) AS n FROM prepick_tool_calls
         WHERE actor_id = $1 AND status = 'pending_approval' GROUP BY thread_id),
       listed AS (
         SELECT th.id, th.agent, th.created_at,
           coalesce((SELECT max(r.created_at) FROM prepick_runs r
                     WHERE r.thread_id = th.id AND r.created_at <= snapshot.as_of), th.created_at) AS active_at
         FROM prepick_threads th, snapshot
         WHERE th.actor_id = $1 AND th.created_at <= snapshot.as_of)
       SELECT listed.*, listed.active_at::text AS active_key, snapshot.as_of::text AS as_of_key,
         coalesce(waiting.n, 0) AS waiting,
         (SELECT r.user_message FROM prepick_runs r WHERE r.thread_id = listed.id ORDER BY r.turn LIMIT 1)
           AS first_message
       FROM listed CROSS JOIN snapshot LEFT JOIN waiting ON waiting.thread_id = listed.id
       WHERE $3::timestamptz IS NULL OR (listed.active_at, listed.id) < ($3::timestamptz, $4::text)
       ORDER BY listed.active_at DESC, listed.id DESC
       LIMIT $5`,
      [actorId, cursor?.asOf ?? null, cursor?.activeAt ?? null, cursor?.id ?? null, limit + 1],
    );
    const threads = rows.slice(0, limit).map((row) => ({
      id: String(row.id),
      agent: String(row.agent),
      title: threadTitle(row.first_message as UserMessage | null),
      createdAt: toThread(row).createdAt,
      lastActiveAt: new Date(String(row.active_at)).toISOString(),
      waiting: Number(row.waiting),
    }));
    const last = rows[limit - 1];
    const next =
      rows.length > limit && last
        ? { asOf: String(last.as_of_key), activeAt: String(last.active_key), id: String(last.id) }
        : undefined;
    return { threads, next };
  }
}
