import { DEADLINES_CHANNEL, INBOX_CHANNEL, WEBHOOKS_CHANNEL } from "./channels";

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
  {
    version: 3,
    statements: [
      // Each change to an actor's inbox (a call starts waiting, or stops) takes the actor's next
      // inbox version. The counter row is locked until the changing statement commits, so one
      // actor's versions commit in order: a reader that has seen version N has seen every change
      // up to N, and the live feed resumes from it without gaps.
      `CREATE TABLE prepick_inbox_versions (
        actor_id text PRIMARY KEY,
        version bigint NOT NULL
      )`,
      "ALTER TABLE prepick_tool_calls ADD COLUMN inbox_version bigint",
      `CREATE INDEX prepick_tool_calls_inbox ON prepick_tool_calls (actor_id, inbox_version)
        WHERE inbox_version IS NOT NULL`,
      `UPDATE prepick_tool_calls t SET inbox_version = numbered.version
        FROM (SELECT id, row_number() OVER (PARTITION BY actor_id ORDER BY created_at, id) AS version
              FROM prepick_tool_calls WHERE status = 'pending_approval') AS numbered
        WHERE t.id = numbered.id`,
      `INSERT INTO prepick_inbox_versions (actor_id, version)
        SELECT actor_id, max(inbox_version) FROM prepick_tool_calls
        WHERE inbox_version IS NOT NULL GROUP BY actor_id`,
      // A trigger, not a clause in each writer: every statement that parks or settles a call
      // (the loop's checkpoints, a person's settlement, a cancel) is covered, and any added later.
      `CREATE FUNCTION prepick_inbox_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF (TG_OP = 'INSERT' AND NEW.status = 'pending_approval')
          OR (TG_OP = 'UPDATE' AND OLD.status = 'pending_approval' AND NEW.status <> 'pending_approval') THEN
          INSERT INTO prepick_inbox_versions AS counter (actor_id, version) VALUES (NEW.actor_id, 1)
            ON CONFLICT (actor_id) DO UPDATE SET version = counter.version + 1
            RETURNING counter.version INTO NEW.inbox_version;
          PERFORM pg_notify('${INBOX_CHANNEL}', NEW.actor_id);
        END IF;
        RETURN NEW;
      END
      $$`,
      // The threads list reads one actor's threads.
      "CREATE INDEX prepick_threads_actor ON prepick_threads (actor_id)",
      `CREATE TRIGGER prepick_tool_calls_inbox BEFORE INSERT OR UPDATE OF status ON prepick_tool_calls
        FOR EACH ROW EXECUTE FUNCTION prepick_inbox_change()`,
    ],
  },
  {
    version: 4,
    statements: [
      // An approval whose input a person may edit: its questions, one per editable field, with
      // the model's proposed values as their defaults (what the inbox renders and approve checks).
      "ALTER TABLE prepick_tool_calls ADD COLUMN questions jsonb",
      // Once approved: `input` is the input the tool runs with, `proposed_input` what the model
      // proposed, `edited` the fields the person changed ([] when approved as proposed).
      "ALTER TABLE prepick_tool_calls ADD COLUMN proposed_input jsonb",
      "ALTER TABLE prepick_tool_calls ADD COLUMN edited jsonb",
    ],
  },
  {
    version: 5,
    statements: [
      // Per-actor limits count an actor's active runs and the turns it started in the last minute.
      "CREATE INDEX prepick_runs_actor ON prepick_runs (actor_id, created_at)",
      // Retention: when a finished run's frames and checkpoints were removed, so a sweep reads
      // only the runs it has not pruned yet.
      "ALTER TABLE prepick_runs ADD COLUMN pruned_at timestamptz",
      `CREATE INDEX prepick_runs_prunable ON prepick_runs (finished_at)
        WHERE pruned_at IS NULL AND status IN ('completed', 'failed', 'cancelled')`,
    ],
  },
  {
    version: 6,
    statements: [
      // The deployment's webhook endpoints, as the processes' configuration last set them. The
      // secrets stay in the configuration: a process signs only for the endpoints it was given.
      `CREATE TABLE prepick_webhook_endpoints (
        url text PRIMARY KEY,
        events text[] NOT NULL
      )`,
      // The outbox: one row per event and endpoint, written by the triggers below in the same
      // transaction as the change it reports, so a change that rolls back reports nothing and one
      // that commits is never lost. A sender claims due rows under a lease (SKIP LOCKED), posts
      // them, and records what the endpoint answered.
      `CREATE TABLE prepick_webhook_outbox (
        event_id text NOT NULL,
        endpoint text NOT NULL,
        type text NOT NULL,
        data jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        status text NOT NULL DEFAULT 'pending',
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        lease_owner text,
        lease_until timestamptz,
        last_status integer,
        last_error text,
        last_attempt_at timestamptz,
        delivered_at timestamptz,
        PRIMARY KEY (event_id, endpoint)
      )`,
      `CREATE INDEX prepick_webhook_outbox_due ON prepick_webhook_outbox (next_attempt_at)
        WHERE status <> 'delivered'`,
      `CREATE INDEX prepick_webhook_outbox_delivered ON prepick_webhook_outbox (delivered_at)
        WHERE status = 'delivered'`,
      // One event, to every endpoint that takes its type, with one id for all of them.
      `CREATE FUNCTION prepick_webhook_emit(event_type text, event_data jsonb) RETURNS void
      LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO prepick_webhook_outbox (event_id, endpoint, type, data)
          SELECT one.id, e.url, event_type, event_data
          FROM prepick_webhook_endpoints e,
            (SELECT 'msg_' || replace(gen_random_uuid()::text, '-', '') AS id) AS one
          WHERE event_type = ANY (e.events);
        IF FOUND THEN PERFORM pg_notify('${WEBHOOKS_CHANNEL}', ''); END IF;
      END
      $$`,
      // A call starts waiting (inserted pending) or stops (settled, cancelled, expired). With no
      // endpoint registered, the trigger costs one look at an empty table and writes nothing.
      `CREATE FUNCTION prepick_webhook_call_change() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        run_agent text;
      BEGIN
        IF NOT EXISTS (SELECT 1 FROM prepick_webhook_endpoints) THEN RETURN NULL; END IF;
        SELECT agent INTO run_agent FROM prepick_runs WHERE id = NEW.run_id;
        PERFORM prepick_webhook_emit(
          CASE WHEN TG_OP = 'INSERT' THEN 'call.waiting' ELSE 'call.settled' END,
          jsonb_build_object('callId', NEW.id, 'runId', NEW.run_id, 'threadId', NEW.thread_id,
            'actorId', NEW.actor_id, 'agent', run_agent, 'name', NEW.name, 'status', NEW.status,
            'input', NEW.input, 'output', NEW.output, 'askedAt', NEW.created_at,
            'settledAt', NEW.settled_at));
        RETURN NULL;
      END
      $$`,
      `CREATE TRIGGER prepick_webhook_call_waiting AFTER INSERT ON prepick_tool_calls
        FOR EACH ROW WHEN (NEW.status = 'pending_approval') EXECUTE FUNCTION prepick_webhook_call_change()`,
      `CREATE TRIGGER prepick_webhook_call_settled AFTER UPDATE OF status ON prepick_tool_calls
        FOR EACH ROW WHEN (OLD.status = 'pending_approval' AND NEW.status <> 'pending_approval')
        EXECUTE FUNCTION prepick_webhook_call_change()`,
      // A run ends: completed, failed or cancelled.
      `CREATE FUNCTION prepick_webhook_run_end() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NOT EXISTS (SELECT 1 FROM prepick_webhook_endpoints) THEN RETURN NULL; END IF;
        PERFORM prepick_webhook_emit(
          CASE NEW.status WHEN 'completed' THEN 'run.finished' WHEN 'failed' THEN 'run.failed'
            ELSE 'run.cancelled' END,
          jsonb_build_object('runId', NEW.id, 'threadId', NEW.thread_id, 'actorId', NEW.actor_id,
            'agent', NEW.agent, 'status', NEW.status, 'error', NEW.error,
            'finishedAt', NEW.finished_at));
        RETURN NULL;
      END
      $$`,
      `CREATE TRIGGER prepick_webhook_run_end AFTER UPDATE OF status ON prepick_runs
        FOR EACH ROW WHEN (NEW.status IN ('completed', 'failed', 'cancelled')
          AND OLD.status NOT IN ('completed', 'failed', 'cancelled'))
        EXECUTE FUNCTION prepick_webhook_run_end()`,
    ],
  },
  {
    version: 7,
    statements: [
      // A run's opt-in deadline: once it passes while the run waits on a person, the run is
      // cancelled and the call it waits on expires, never settled. Null, as every run has by
      // default, is no deadline: the run waits as long as it takes.
      "ALTER TABLE prepick_runs ADD COLUMN expires_at timestamptz",
      `CREATE INDEX prepick_runs_expiring ON prepick_runs (expires_at)
        WHERE status = 'parked' AND expires_at IS NOT NULL`,
      // A run with a deadline parks: every process hears when it is due (ms since the epoch) and
      // arms its timer, so the run expires even if the process that ran it is gone. A trigger
      // whose WHEN skips runs without a deadline: their statements are unchanged.
      `CREATE FUNCTION prepick_deadline_parked() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('${DEADLINES_CHANNEL}',
          floor(extract(epoch FROM NEW.expires_at) * 1000)::bigint::text);
        RETURN NULL;
      END
      $$`,
      `CREATE TRIGGER prepick_deadline_parked AFTER UPDATE OF status ON prepick_runs
        FOR EACH ROW WHEN (NEW.status = 'parked' AND NEW.expires_at IS NOT NULL)
        EXECUTE FUNCTION prepick_deadline_parked()`,
      // A run's webhook event says when its deadline was and whether it expired: cancelled at
      // its deadline while parked on a person.
      `CREATE OR REPLACE FUNCTION prepick_webhook_run_end() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NOT EXISTS (SELECT 1 FROM prepick_webhook_endpoints) THEN RETURN NULL; END IF;
        PERFORM prepick_webhook_emit(
          CASE NEW.status WHEN 'completed' THEN 'run.finished' WHEN 'failed' THEN 'run.failed'
            ELSE 'run.cancelled' END,
          jsonb_build_object('runId', NEW.id, 'threadId', NEW.thread_id, 'actorId', NEW.actor_id,
            'agent', NEW.agent, 'status', NEW.status, 'error', NEW.error,
            'finishedAt', NEW.finished_at, 'expiresAt', NEW.expires_at,
            'expired', NEW.status = 'cancelled' AND OLD.status = 'parked'
              AND NEW.expires_at IS NOT NULL AND NEW.expires_at <= NEW.finished_at));
        RETURN NULL;
      END
      $$`,
      // A call's event carries its run's deadline.
      `CREATE OR REPLACE FUNCTION prepick_webhook_call_change() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        run_agent text;
        run_expires_at timestamptz;
      BEGIN
        IF NOT EXISTS (SELECT 1 FROM prepick_webhook_endpoints) THEN RETURN NULL; END IF;
        SELECT agent, expires_at INTO run_agent, run_expires_at FROM prepick_runs WHERE id = NEW.run_id;
        PERFORM prepick_webhook_emit(
          CASE WHEN TG_OP = 'INSERT' THEN 'call.waiting' ELSE 'call.settled' END,
          jsonb_build_object('callId', NEW.id, 'runId', NEW.run_id, 'threadId', NEW.thread_id,
            'actorId', NEW.actor_id, 'agent', run_agent, 'name', NEW.name, 'status', NEW.status,
            'input', NEW.input, 'output', NEW.output, 'askedAt', NEW.created_at,
            'settledAt', NEW.settled_at, 'expiresAt', run_expires_at));
        RETURN NULL;
      END
      $$`,
    ],
  },
  {
    version: 8,
    statements: [
      // What a person has typed into a waiting question set, per actor and call, so another
      // device resumes it. Never an answer: nothing that settles a call reads it. It goes with
      // its call.
      `CREATE TABLE prepick_drafts (
        actor_id text NOT NULL,
        call_id text NOT NULL REFERENCES prepick_tool_calls (id) ON DELETE CASCADE,
        draft jsonb NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (actor_id, call_id)
      )`,
    ],
  },
  {
    version: 9,
    statements: [
      // The lease index held every running run under the predicate `status = 'running'`, which
      // the statements that write a held run (`WHERE id = $1 AND status = 'running' AND
      // lease_owner = $2`) also say: the planner took the index for that and scanned every
      // running run for the one id, instead of the primary key (0.34 ms a statement with 1 000
      // runs in flight). Keyed on the lease alone, it serves only the expiry sweep
      // (`lease_until < now()`), and a run holds a lease exactly while it runs.
      "DROP INDEX prepick_runs_leases",
      "CREATE INDEX prepick_runs_leases ON prepick_runs (lease_until) WHERE lease_until IS NOT NULL",
      // The runs' own rows (frames, checkpoints, usage) and a run's thread are only ever written
      // by a statement that holds the run (the `held` guard) or creates it, and runs and threads
      // are never deleted: the foreign keys checked again, per row, what the statement had just
      // made sure of (a trigger and a locking read each, about a tenth of the engine's time per
      // run). Tool calls keep theirs (drafts cascade from them).
      "ALTER TABLE prepick_frames DROP CONSTRAINT IF EXISTS prepick_frames_run_id_fkey",
      "ALTER TABLE prepick_checkpoints DROP CONSTRAINT IF EXISTS prepick_checkpoints_run_id_fkey",
      "ALTER TABLE prepick_usage DROP CONSTRAINT IF EXISTS prepick_usage_run_id_fkey",
      "ALTER TABLE prepick_runs DROP CONSTRAINT IF EXISTS prepick_runs_thread_id_fkey",
      // The inbox trigger ran its function for every tool call written and every status change;
      // only a call that starts or stops waiting changes an inbox, so the triggers now say so.
      "DROP TRIGGER prepick_tool_calls_inbox ON prepick_tool_calls",
      `CREATE TRIGGER prepick_tool_calls_inbox_waiting BEFORE INSERT ON prepick_tool_calls
        FOR EACH ROW WHEN (NEW.status = 'pending_approval') EXECUTE FUNCTION prepick_inbox_change()`,
      `CREATE TRIGGER prepick_tool_calls_inbox_settled BEFORE UPDATE OF status ON prepick_tool_calls
        FOR EACH ROW WHEN (OLD.status = 'pending_approval' AND NEW.status <> 'pending_approval')
        EXECUTE FUNCTION prepick_inbox_change()`,
    ],
  },
  {
    version: 10,
    statements: [
      // A write's frames are one row: its first and last sequence numbers and the frames, in
      // order, as a JSON array (a model call's nine frames were nine rows, each a heap tuple and an
      // index entry: about a third of the step's write in the engine). The primary key becomes
      // (run_id, first_seq), so two writers that numbered from the same last frame still collide
      // as before; the rows of a run never overlap and leave no gap. Each frame keeps its number:
      // a row's frames are first_seq, first_seq + 1, … last_seq. An existing frame becomes a row
      // of one.
      "ALTER TABLE prepick_frames RENAME COLUMN seq TO first_seq",
      "ALTER TABLE prepick_frames RENAME COLUMN frame TO frames",
      `ALTER TABLE prepick_frames ALTER COLUMN frames TYPE jsonb USING jsonb_build_array(frames),
        ADD COLUMN last_seq integer`,
      "UPDATE prepick_frames SET last_seq = first_seq",
      "ALTER TABLE prepick_frames ALTER COLUMN last_seq SET NOT NULL",
    ],
  },
];
