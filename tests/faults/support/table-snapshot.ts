import { waitFor } from "../../support/wait-for";
import type { FaultCluster } from "./fault-database";

const TABLES = [
  "prepick_threads",
  "prepick_runs",
  "prepick_checkpoints",
  "prepick_tool_calls",
  "prepick_frames",
  "prepick_usage",
];

/**
 * Every row of every table the server writes, in a stable order: what "no row changed" compares.
 * It is taken once no run can move by itself (each is parked or ended): a run still going (one an
 * earlier test answered) changes its row, its frames and its checkpoints between two snapshots
 * with no request's help, and a comparison taken then would fail for nothing the test did.
 */
export async function tableSnapshot(cluster: FaultCluster, url: string): Promise<Record<string, unknown[]>> {
  await waitFor(
    "every run to park or end before a snapshot of the tables",
    async () => {
      const moving = await cluster.query(
        url,
        "SELECT 1 FROM prepick_runs WHERE status IN ('ready', 'running')",
      );
      return moving.length === 0 ? true : undefined;
    },
    { timeoutMs: 30_000 },
  );
  const snapshot: Record<string, unknown[]> = {};
  for (const table of TABLES) {
    snapshot[table] = await cluster.query(url, `SELECT * FROM ${table} ORDER BY 1, 2`);
  }
  return snapshot;
}
