/** The NOTIFY channel that says a run became ready; the payload is the run id. */
export const RUNS_CHANNEL = "prepick_runs";
/** The NOTIFY channel that says a run has new frames; the payload is the run id. */
export const FRAMES_CHANNEL = "prepick_frames";
/**
 * The NOTIFY channel that says an actor's inbox changed (a call started waiting, or was
 * settled); the payload is the actor id. The store's trigger sends it (migration 3).
 */
export const INBOX_CHANNEL = "prepick_inbox";
/**
 * The NOTIFY channel that says a running run was asked to stop; the payload is the run id. The
 * process running it aborts the run's model call and tool in flight at once.
 */
export const CANCELS_CHANNEL = "prepick_cancels";
/**
 * The NOTIFY channel that says webhook events were written to the outbox (migration 6's
 * trigger); every process that sends webhooks claims what is due.
 */
export const WEBHOOKS_CHANNEL = "prepick_webhooks";
/**
 * The NOTIFY channel that says a run with a deadline parked (a trigger, migration 7); the payload
 * is the deadline in ms since the epoch. Every process arms its timer for it, so the run expires
 * even if the process that ran it is gone.
 */
export const DEADLINES_CHANNEL = "prepick_deadlines";
