import { expect } from "vitest";
import { crashAtEveryCheckpoint } from "./support/crash-scenario";
import type { FaultCluster } from "./support/fault-database";

/** The deploy's tool-call row and the frames that settled it. */
async function deployOf(cluster: FaultCluster, url: string, runId: string) {
  const rows = await cluster.query<{ status: string; claimed: boolean }>(
    url,
    `SELECT status, execution_claimed_at IS NOT NULL AS claimed
       FROM prepick_tool_calls WHERE run_id = $1 AND name = 'deploy'`,
    [runId],
  );
  const settled = await cluster.query<{ kind: string; frame: { output?: unknown; error?: string } }>(
    url,
    `SELECT frame->>'kind' AS kind, frame FROM prepick_frames
      WHERE run_id = $1 AND frame->>'kind' IN ('tool-output', 'tool-error')
        AND frame->>'id' IN (SELECT id FROM prepick_tool_calls WHERE run_id = $1 AND name = 'deploy')
      ORDER BY seq`,
    [runId],
  );
  return { rows, settled };
}

// One turn that parks three times: its intake, the model's own questions, then the approval of a
// tool with a side effect.
crashAtEveryCheckpoint({
  name: "crash_turn",
  agent: "releaser",
  agentsModule: "tests/faults/support/release-agent.ts",
  text: "Plan the release, then deploy the web service",
  settle: (client, toolCallId, name) => {
    if (name !== "ask") return client.post("/agent/tool-call/approve", { toolCallId });
    // The intake is answered with a change; the model's own questions are confirmed as pre-picked.
    const answers = toolCallId.startsWith("intake-") ? { answers: { window: ["tonight"] } } : {};
    return client.post("/agent/tool-call/answer", { toolCallId, ...answers });
  },
  async checkStore(cluster, url, runId) {
    // One execution claim, one output: a replay that found the deploy done did not run it again.
    const { rows, settled } = await deployOf(cluster, url, runId);
    expect(rows).toEqual([{ status: "completed", claimed: true }]);
    expect(settled).toEqual([
      { kind: "tool-output", frame: expect.objectContaining({ output: { deployed: "web" } }) },
    ]);
  },
  lostResult: {
    // The deploy's is the turn's last `persist:toolexec`; the one before it is the model's `ask`.
    matches: (checkpoint, journal) =>
      checkpoint === journal.filter((name) => name.startsWith("persist:toolexec:")).at(-1),
    async check(cluster, url, runId) {
      const { rows, settled } = await deployOf(cluster, url, runId);
      expect(rows).toEqual([{ status: "failed", claimed: true }]);
      expect(settled).toHaveLength(1);
      expect(JSON.stringify(settled[0]?.frame)).toMatch(/not run again/);
    },
  },
});
