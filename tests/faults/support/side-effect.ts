import { expect } from "vitest";
import { EACH_FRAME_SQL } from "../../../server/store/frames";
import type { CrashScenario } from "./crash-scenario";
import type { FaultCluster } from "./fault-database";

/** A tool's call rows in a run (status, whether its execution was claimed) and the frames that settled them. */
async function settlementOf(cluster: FaultCluster, url: string, runId: string, toolName: string) {
  const rows = await cluster.query<{ status: string; claimed: boolean }>(
    url,
    `SELECT status, execution_claimed_at IS NOT NULL AS claimed
       FROM prepick_tool_calls WHERE run_id = $1 AND name = $2`,
    [runId, toolName],
  );
  const settled = await cluster.query<{ kind: string; frame: { output?: unknown; error?: string } }>(
    url,
    `SELECT frame->>'kind' AS kind, frame FROM ${EACH_FRAME_SQL} AS f
      WHERE run_id = $1 AND frame->>'kind' IN ('tool-output', 'tool-error')
        AND frame->>'id' IN (SELECT id FROM prepick_tool_calls WHERE run_id = $1 AND name = $2)
      ORDER BY seq`,
    [runId, toolName],
  );
  return { rows, settled };
}

/**
 * The checks of a scenario whose turn ends with one side-effecting tool, `toolName`, returning
 * `output`: finished, it ran once (one execution claim, one output); killed between its work
 * and the turn's last `persist:toolexec`, it was not run again and the model was told so.
 */
export function sideEffectOnce(
  toolName: string,
  output: unknown,
): Pick<CrashScenario, "checkStore" | "lostResult"> {
  return {
    async checkStore(cluster, url, runId) {
      const { rows, settled } = await settlementOf(cluster, url, runId, toolName);
      expect(rows).toEqual([{ status: "completed", claimed: true }]);
      expect(settled).toEqual([{ kind: "tool-output", frame: expect.objectContaining({ output }) }]);
    },
    lostResult: {
      matches: (checkpoint, journal) =>
        checkpoint === journal.filter((name) => name.startsWith("persist:toolexec:")).at(-1),
      async check(cluster, url, runId) {
        const { rows, settled } = await settlementOf(cluster, url, runId, toolName);
        expect(rows).toEqual([{ status: "failed", claimed: true }]);
        expect(settled).toHaveLength(1);
        expect(JSON.stringify(settled[0]?.frame)).toMatch(/not run again/);
      },
    },
  };
}
