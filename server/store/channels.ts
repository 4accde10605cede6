/** The NOTIFY channel that says a run became ready; the payload is the run id. */
export const RUNS_CHANNEL = "prepick_runs";
/** The NOTIFY channel that says a run has new frames; the payload is the run id. */
export const FRAMES_CHANNEL = "prepick_frames";
