import { expect } from "vitest";
import { crashAtEveryCheckpoint } from "./support/crash-scenario";
import type { FaultCluster } from "./support/fault-database";

/** The purge's tool-call row and the frames that settled it. */
async function purgeOf(cluster: FaultCluster, url: string, runId: string) {
  const rows = await cluster.query<{ status: string; claimed: boolean }>(
    url,
    `SELECT status, execution_claimed_at IS NOT NULL AS claimed
       FROM prepick_tool_calls WHERE run_id = $1 AND name = 'purge_cache'`,
    [runId],
  );
  const settled = await cluster.query<{ kind: string; frame: { output?: unknown; error?: string } }>(
    url,
    `SELECT frame->>'kind' AS kind, frame FROM prepick_frames
      WHERE run_id = $1 AND frame->>'kind' IN ('tool-output', 'tool-error') ORDER BY seq`,
    [runId],
  );
  return { rows, settled };
}

crashAtEveryCheckpoint({
  name: "crash_tool",
  agent: "operator",
  text: "Purge the pages cache",
  settle: (client, toolCallId) => client.post("/agent/tool-call/approve", { toolCallId }),
  async checkStore(cluster, url, runId) {
    // One execution claim, one output: a replay that found the purge done did not run it again.
    const { rows, settled } = await purgeOf(cluster, url, runId);
    expect(rows).toEqual([{ status: "completed", claimed: true }]);
    expect(settled).toEqual([
      { kind: "tool-output", frame: expect.objectContaining({ output: { purged: "pages" } }) },
    ]);
  },
  lostResult: {
    matches: (checkpoint) => checkpoint.startsWith("persist:toolexec:"),
    async check(cluster, url, runId) {
      const { rows, settled } = await purgeOf(cluster, url, runId);
      expect(rows).toEqual([{ status: "failed", claimed: true }]);
      expect(settled).toHaveLength(1);
      expect(JSON.stringify(settled[0]?.frame)).toMatch(/not run again/);
    },
  },
});
