import type { Store } from "../store/store";

/** The shape of a thread written straight into the store. */
export interface SeededThread {
  /** The thread id; its runs are `<id>-run-<turn>`, their messages `<id>-msg-<turn>`. */
  threadId: string;
  /** Who owns it. */
  actorId: string;
  /** How many finished turns it holds. */
  turns: number;
  /** How many `text-delta` frames each turn's reply holds. */
  deltas: number;
  /** How many characters each delta holds. */
  deltaChars: number;
}

/**
 * Writes a thread of finished turns straight into the store, in three statements however large:
 * each turn is the person's message `Turn <n>` and a completed run whose frames are the ones a
 * streamed reply leaves (`run-start`, `step-start`, `text-start`, the deltas, `text-end`,
 * `step-finish`, `run-finish`). For tests and benchmarks of reading large threads back.
 */
export async function seedThread(store: Store, thread: SeededThread, agent = "plain"): Promise<void> {
  const { threadId, actorId, turns, deltas, deltaChars } = thread;
  await store.db.query("INSERT INTO prepick_threads (id, actor_id, agent) VALUES ($1, $2, $3)", [
    threadId,
    actorId,
    agent,
  ]);
  await store.db.query(
    `INSERT INTO prepick_runs (id, thread_id, actor_id, agent, turn, message_id, user_message, status)
     SELECT $1 || '-run-' || t, $1, $2, $3, t, $1 || '-msg-' || t,
       jsonb_build_object('id', $1 || '-user-' || t, 'role', 'user',
         'parts', jsonb_build_array(jsonb_build_object('type', 'text', 'text', 'Turn ' || t))),
       'completed'
     FROM generate_series(0, $4::int - 1) AS t`,
    [threadId, actorId, agent, turns],
  );
  await store.db.query(
    // As a run leaves them: `run-start` a row of its own, the model call's frames one row.
    `INSERT INTO prepick_frames (run_id, first_seq, last_seq, frames)
     SELECT $1 || '-run-' || t, min(s), max(s), jsonb_agg(CASE
         WHEN s = 1 THEN jsonb_build_object('kind', 'run-start', 'runId', $1 || '-run-' || t,
           'threadId', $1, 'messageId', $1 || '-msg-' || t, 'agent', $4::text)
         WHEN s = 2 THEN jsonb_build_object('kind', 'step-start', 'step', 0)
         WHEN s = 3 THEN jsonb_build_object('kind', 'text-start', 'id', 'text-0')
         WHEN s <= $2::int + 3 THEN jsonb_build_object('kind', 'text-delta', 'id', 'text-0',
           'delta', repeat(chr(97 + (s % 26)), $3::int))
         WHEN s = $2::int + 4 THEN jsonb_build_object('kind', 'text-end', 'id', 'text-0')
         WHEN s = $2::int + 5 THEN jsonb_build_object('kind', 'step-finish', 'step', 0)
         ELSE jsonb_build_object('kind', 'run-finish', 'status', 'completed')
       END ORDER BY s)
     FROM generate_series(0, $5::int - 1) AS t, generate_series(1, $2::int + 6) AS s
     GROUP BY t, s = 1`,
    [threadId, deltas, deltaChars, agent, turns],
  );
}
