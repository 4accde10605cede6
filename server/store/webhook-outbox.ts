import type { Database } from "../database/database";
import { json } from "./json";
import type { Row } from "./read-rows";

/** Where one event stands for one endpoint. */
export type DeliveryStatus = "pending" | "delivered" | "failing";

/** One event for one endpoint, as the outbox holds it. */
export interface OutboxRow {
  /** The event's id, the same for every endpoint and every attempt: `webhook-id`. */
  eventId: string;
  /** The endpoint's URL. */
  endpoint: string;
  /** The event's type, e.g. `call.waiting`. */
  type: string;
  /** What the change's trigger recorded about it. */
  data: Record<string, unknown>;
  /** When the change committed (ISO 8601). */
  createdAt: string;
  /** `pending` until the first attempt, `delivered` once the endpoint answered 2xx, else `failing`. */
  status: DeliveryStatus;
  /** How many times it was posted. */
  attempts: number;
  /** The endpoint's last HTTP status, if it answered. */
  lastStatus: number | null;
  /** Why the last attempt failed, when it did. */
  lastError: string | null;
  /** When it was last posted (ISO 8601). */
  lastAttemptAt: string | null;
  /** When the endpoint took it (ISO 8601). */
  deliveredAt: string | null;
  /** When the next attempt is due, until delivered (ISO 8601). */
  nextAttemptAt: string | null;
}

/** What one attempt came to. */
export interface DeliveryAttempt {
  /** The event. */
  eventId: string;
  /** The endpoint. */
  endpoint: string;
  /** Whether the endpoint answered 2xx. */
  delivered: boolean;
  /** Its HTTP status, if it answered. */
  status?: number;
  /** Why it failed, when it did: a timeout, a refused connection, the status. */
  error?: string;
  /** How long to wait before the next attempt, when it failed, in ms. */
  retryInMs?: number;
}

const iso = (value: unknown) =>
  value === null || value === undefined ? null : new Date(value as string | Date).toISOString();

function toOutboxRow(row: Row): OutboxRow {
  return {
    eventId: String(row.event_id),
    endpoint: String(row.endpoint),
    type: String(row.type),
    data: row.data as Record<string, unknown>,
    createdAt: iso(row.created_at) ?? "",
    status: row.status as DeliveryStatus,
    attempts: Number(row.attempts),
    lastStatus: row.last_status === null || row.last_status === undefined ? null : Number(row.last_status),
    lastError: row.last_error === null || row.last_error === undefined ? null : String(row.last_error),
    lastAttemptAt: iso(row.last_attempt_at),
    deliveredAt: iso(row.delivered_at),
    nextAttemptAt: row.status === "delivered" ? null : iso(row.next_attempt_at),
  };
}

/**
 * The webhook outbox (migration 6): the registered endpoints, and one row per event and endpoint
 * that the triggers write with the change they report. Senders claim due rows under a lease,
 * skipping rows another process is claiming, so each event is posted by one process at a time.
 */
export class WebhookOutboxStore {
  /** @param db The store's database. */
  constructor(private readonly db: Database) {}

  /**
   * Makes the registered endpoints exactly `endpoints`: the triggers write events only for them.
   * An endpoint left out is removed with its undelivered events, which nobody could send.
   */
  async register(endpoints: readonly { url: string; events: readonly string[] }[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      const urls = json(endpoints.map((endpoint) => endpoint.url));
      await tx.query(
        "DELETE FROM prepick_webhook_outbox WHERE endpoint NOT IN (SELECT jsonb_array_elements_text($1::jsonb))",
        [urls],
      );
      await tx.query(
        "DELETE FROM prepick_webhook_endpoints WHERE url NOT IN (SELECT jsonb_array_elements_text($1::jsonb))",
        [urls],
      );
      if (endpoints.length === 0) return;
      await tx.query(
        `INSERT INTO prepick_webhook_endpoints (url, events)
         SELECT e.url, ARRAY(SELECT jsonb_array_elements_text(e.events))
         FROM jsonb_to_recordset($1::jsonb) AS e(url text, events jsonb)
         ON CONFLICT (url) DO UPDATE SET events = EXCLUDED.events`,
        [json(endpoints.map(({ url, events }) => ({ url, events })))],
      );
    });
  }

  /**
   * Claims up to `limit` due rows of `endpoints` for `owner` for `leaseMs`, oldest first: one
   * statement. Rows another process holds (its lease running) or is claiming are skipped.
   */
  async claim(
    owner: string,
    endpoints: readonly string[],
    limit: number,
    leaseMs: number,
  ): Promise<OutboxRow[]> {
    const rows = await this.db.query(
      `WITH due AS (
         SELECT event_id, endpoint FROM prepick_webhook_outbox
         WHERE status <> 'delivered' AND next_attempt_at <= now()
           AND (lease_until IS NULL OR lease_until < now())
           AND endpoint IN (SELECT jsonb_array_elements_text($1::jsonb))
         ORDER BY created_at, event_id LIMIT $3 FOR UPDATE SKIP LOCKED)
       UPDATE prepick_webhook_outbox o SET lease_owner = $2,
         lease_until = now() + ($4 * interval '1 millisecond')
       FROM due WHERE o.event_id = due.event_id AND o.endpoint = due.endpoint
       RETURNING o.*`,
      [json(endpoints), owner, limit, leaseMs],
    );
    return rows.map(toOutboxRow).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  /** Records an attempt: delivered, or failing with what the endpoint said and when to try again. */
  async record(attempt: DeliveryAttempt): Promise<void> {
    await this.db.query(
      `UPDATE prepick_webhook_outbox SET
         status = CASE WHEN $3 THEN 'delivered' ELSE 'failing' END,
         attempts = attempts + 1, last_status = $4, last_error = $5, last_attempt_at = now(),
         delivered_at = CASE WHEN $3 THEN now() END,
         next_attempt_at = now() + ($6 * interval '1 millisecond'),
         lease_owner = NULL, lease_until = NULL
       WHERE event_id = $1 AND endpoint = $2 AND status <> 'delivered'`,
      [
        attempt.eventId,
        attempt.endpoint,
        attempt.delivered,
        attempt.status ?? null,
        attempt.error ?? null,
        attempt.retryInMs ?? 0,
      ],
    );
  }

  /** When the next undelivered row of `endpoints` is due, or undefined when none waits. */
  async nextDue(endpoints: readonly string[]): Promise<Date | undefined> {
    const rows = await this.db.query<{ due: unknown }>(
      `SELECT min(greatest(next_attempt_at, coalesce(lease_until, next_attempt_at))) AS due
       FROM prepick_webhook_outbox
       WHERE status <> 'delivered' AND endpoint IN (SELECT jsonb_array_elements_text($1::jsonb))`,
      [json(endpoints)],
    );
    const due = rows[0]?.due;
    return due === null || due === undefined ? undefined : new Date(due as string | Date);
  }

  /** The outbox's rows, newest first: all, or those of one status; at most `limit`. */
  async list(options: { status?: DeliveryStatus; limit?: number } = {}): Promise<OutboxRow[]> {
    const rows = await this.db.query(
      `SELECT * FROM prepick_webhook_outbox WHERE ($1::text IS NULL OR status = $1::text)
       ORDER BY created_at DESC, event_id LIMIT $2`,
      [options.status ?? null, options.limit ?? 100],
    );
    return rows.map(toOutboxRow);
  }

  /** Removes delivered rows delivered more than `olderThanMs` ago; never an undelivered one. */
  async prune(olderThanMs: number): Promise<number> {
    const rows = await this.db.query(
      `DELETE FROM prepick_webhook_outbox
       WHERE status = 'delivered' AND delivered_at < now() - ($1 * interval '1 millisecond')
       RETURNING event_id`,
      [olderThanMs],
    );
    return rows.length;
  }
}
