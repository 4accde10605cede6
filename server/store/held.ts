/**
 * The CTE `held`: the run `run`, locked against a claim until the statement commits, when
 * `owner` holds its lease (no row otherwise). Every write of a running run is guarded by it, so a
 * process that lost a run cannot write to its journal or stream.
 */
export function heldSql(run: string, owner: string): string {
  return `held AS (
    SELECT cancel_requested FROM prepick_runs
    WHERE id = ${run} AND status = 'running' AND lease_owner = ${owner} FOR SHARE)`;
}
