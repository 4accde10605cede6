import type { Database } from "../database/database";
import { json } from "./json";

/** A draft as stored: the values the person set, by question id, and their current question. */
export interface StoredDraft {
  values: Record<string, string[]>;
  index: number;
  /** When it was last saved (ISO 8601). */
  updatedAt: string;
}

/** What saving a draft came to. */
export type SaveDraftResult = "saved" | "not-found" | "not-waiting";

/**
 * Drafts of waiting question sets, per actor and call (migration 8), so a person continues on
 * another device what they typed on one. A draft is never an answer: settling reads nothing here.
 */
export class DraftStore {
  /** @param db The store's database. */
  constructor(private readonly db: Database) {}

  /**
   * Saves the actor's draft of a question set still waiting, in one statement; a call that is
   * not the actor's question set is `not-found`, one that stopped waiting `not-waiting`.
   */
  async save(
    actorId: string,
    callId: string,
    draft: Omit<StoredDraft, "updatedAt">,
  ): Promise<SaveDraftResult> {
    const rows = await this.db.query<{ status: string; saved: boolean }>(
      `WITH call AS (
         SELECT id, status FROM prepick_tool_calls WHERE id = $2 AND actor_id = $1 AND name = 'ask'),
       saved AS (
         INSERT INTO prepick_drafts (actor_id, call_id, draft)
         SELECT $1, id, $3::jsonb FROM call WHERE status = 'pending_approval'
         ON CONFLICT (actor_id, call_id) DO UPDATE SET draft = EXCLUDED.draft, updated_at = now()
         RETURNING call_id)
       SELECT call.status, EXISTS (SELECT 1 FROM saved) AS saved FROM call`,
      [actorId, callId, json({ values: draft.values, index: draft.index })],
    );
    const row = rows[0];
    if (!row) return "not-found";
    return row.saved ? "saved" : "not-waiting";
  }

  /** The actor's draft of a call, if one was saved. */
  async get(actorId: string, callId: string): Promise<StoredDraft | undefined> {
    const rows = await this.db.query<{
      draft: { values: Record<string, string[]>; index: number };
      updated_at: unknown;
    }>("SELECT draft, updated_at FROM prepick_drafts WHERE actor_id = $1 AND call_id = $2", [
      actorId,
      callId,
    ]);
    const row = rows[0];
    if (!row) return undefined;
    return { ...row.draft, updatedAt: new Date(row.updated_at as string).toISOString() };
  }
}
