import type { Database } from "../database/database";

/** What an actor has going: what per-actor limits are checked against. */
export interface ActorLoad {
  /** The actor's runs that are `ready` or `running` (a parked run waits on the actor, not on the server). */
  active: number;
  /** The turns the actor started in the last minute. */
  startedLastMinute: number;
  /** How long until the oldest of those leaves the minute, in ms (0 when there is none). */
  msUntilOneLeaves: number;
}

/** Counts what one actor has going, for the per-actor limits on starting a turn. */
export class ActorLoadStore {
  /** @param db The store's database. */
  constructor(private readonly db: Database) {}

  /** The actor's active runs and recent starts, in one statement (an index on the actor's runs). */
  async of(actorId: string): Promise<ActorLoad> {
    const rows = await this.db.query<{ active: number; recent: number; wait_ms: number | null }>(
      `SELECT count(*) FILTER (WHERE status IN ('ready', 'running'))::int AS active,
         count(*) FILTER (WHERE created_at > now() - interval '1 minute')::int AS recent,
         (extract(epoch FROM min(created_at) FILTER (WHERE created_at > now() - interval '1 minute')
           + interval '1 minute' - now()) * 1000)::float8 AS wait_ms
       FROM prepick_runs
       WHERE actor_id = $1 AND (status IN ('ready', 'running') OR created_at > now() - interval '1 minute')`,
      [actorId],
    );
    const row = rows[0];
    return {
      active: Number(row?.active ?? 0),
      startedLastMinute: Number(row?.recent ?? 0),
      msUntilOneLeaves: Math.max(0, Math.ceil(Number(row?.wait_ms ?? 0))),
    };
  }
}
