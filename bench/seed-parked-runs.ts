import type { Database } from "prepick/server";

/** Each table the store writes for a run, and how its rows point at the run. */
const TABLES: readonly { table: string; where: string }[] = [
  { table: "prepick_threads", where: "id = $2" },
  { table: "prepick_runs", where: "id = $1" },
  { table: "prepick_checkpoints", where: "run_id = $1" },
  { table: "prepick_tool_calls", where: "run_id = $1" },
  { table: "prepick_frames", where: "run_id = $1" },
];

/**
 * Copies one parked run `count` times, row for row (thread, run, journal, pending call, frames),
 * with its run, thread and message ids suffixed `-c<i>`: the same rows the loop writes when a run
 * parks, made in one statement per table instead of `count` model turns. Copy `i` is the run
 * `<runId>-c<i>`, waiting on `intake-<runId>-c<i>`.
 */
export async function seedParkedRuns(
  db: Database,
  template: { runId: string; threadId: string; messageId: string },
  count: number,
): Promise<void> {
  const { runId, threadId, messageId } = template;
  await db.transaction(async (tx) => {
    for (const { table, where } of TABLES) {
      await tx.query(
        `INSERT INTO ${table}
         SELECT (jsonb_populate_record(NULL::${table},
           replace(replace(replace(to_jsonb(t)::text,
             $1, $1 || '-c' || i), $2, $2 || '-c' || i), $3, $3 || '-c' || i)::jsonb)).*
         FROM ${table} t, generate_series(1, $4::int) AS i
         WHERE ${where}`,
        [runId, threadId, messageId, count],
      );
    }
  });
}
