/** One schema change, applied once, in order, on PGlite and PostgreSQL alike. */
export interface Migration {
  /** Increasing from 1; recorded in `prepick_migrations` once applied. */
  version: number;
  /** The statements, run in one transaction. */
  statements: string[];
}

/** The store's schema, as a list of migrations. Append; never edit one that has shipped. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    statements: [
      `CREATE TABLE prepick_threads (
        id text PRIMARY KEY,
        actor_id text NOT NULL,
        agent text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE TABLE prepick_runs (
        id text PRIMARY KEY,
        thread_id text NOT NULL REFERENCES prepick_threads (id),
        actor_id text NOT NULL,
        agent text NOT NULL,
        turn integer NOT NULL,
        message_id text NOT NULL,
        user_message jsonb NOT NULL,
        status text NOT NULL,
        wake_pending boolean NOT NULL DEFAULT false,
        cancel_requested boolean NOT NULL DEFAULT false,
        lease_owner text,
        lease_until timestamptz,
        error text,
        model_messages jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz
      )`,
      `CREATE INDEX prepick_runs_status ON prepick_runs (status)`,
      `CREATE INDEX prepick_runs_thread ON prepick_runs (thread_id, turn)`,
      // One turn at a time per thread, enforced for every process sharing the database.
      `CREATE UNIQUE INDEX prepick_runs_one_active ON prepick_runs (thread_id)
        WHERE status IN ('ready', 'running', 'parked')`,
      `CREATE TABLE prepick_checkpoints (
        run_id text NOT NULL REFERENCES prepick_runs (id),
        position integer NOT NULL,
        name text NOT NULL,
        result jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (run_id, position)
      )`,
      `CREATE TABLE prepick_tool_calls (
        id text PRIMARY KEY,
        run_id text NOT NULL REFERENCES prepick_runs (id),
        thread_id text NOT NULL,
        actor_id text NOT NULL,
        name text NOT NULL,
        tool_type text NOT NULL,
        status text NOT NULL,
        input jsonb,
        output jsonb,
        execution_claimed_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        settled_at timestamptz
      )`,
      `CREATE INDEX prepick_tool_calls_pending ON prepick_tool_calls (actor_id, status)`,
      `CREATE INDEX prepick_tool_calls_run ON prepick_tool_calls (run_id)`,
      `CREATE TABLE prepick_frames (
        run_id text NOT NULL REFERENCES prepick_runs (id),
        seq integer NOT NULL,
        frame jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (run_id, seq)
      )`,
      `CREATE TABLE prepick_usage (
        id bigserial PRIMARY KEY,
        run_id text NOT NULL REFERENCES prepick_runs (id),
        step integer NOT NULL,
        model text,
        input_tokens integer,
        output_tokens integer,
        total_tokens integer,
        created_at timestamptz NOT NULL DEFAULT now()
      )`,
    ],
  },
  {
    version: 2,
    statements: [
      // The call a parked run waits on: a settlement of exactly that call records its signal.
      "ALTER TABLE prepick_runs ADD COLUMN waiting_on text",
      // When a run last became ready: ready runs are claimed in that order.
      "ALTER TABLE prepick_runs ADD COLUMN ready_at timestamptz NOT NULL DEFAULT now()",
      "CREATE INDEX prepick_runs_ready ON prepick_runs (ready_at, id) WHERE status = 'ready'",
      "CREATE INDEX prepick_runs_leases ON prepick_runs (lease_until) WHERE status = 'running'",
      "DROP INDEX prepick_runs_status",
    ],
  },
];
