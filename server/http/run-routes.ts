import type { AgentApp, RouteContext } from "./context";
import { frameStreamResponse } from "./sse";

const SEQ = /^\d{1,9}$/;

/** Reads `Last-Event-ID` or `?after=N`; undefined when present but not a sequence number. */
function readAfter(header: string | undefined, query: string | undefined): number | undefined {
  const raw = header ?? query;
  if (raw === undefined || raw === "") return 0;
  return SEQ.test(raw) ? Number(raw) : undefined;
}

/** The run routes: resume a stream, read the journal, cancel. Only the thread's owner sees a run. */
export function runRoutes(app: AgentApp, context: RouteContext): void {
  const owned = async (runId: string, actorId: string) => {
    const run = await context.store.runs.get(runId);
    return run && run.actorId === actorId ? run : undefined;
  };
  const notFound = (runId: string) => ({ error: `No run ${runId} is yours.` });

  app.get("/agent/runs/:runId/stream", async (c) => {
    const runId = c.req.param("runId");
    const after = readAfter(c.req.header("last-event-id"), c.req.query("after"));
    if (after === undefined) {
      return c.json({ error: "Last-Event-ID or after must be a sequence number (0 or more)" }, 400);
    }
    const run = await owned(runId, c.get("actorId"));
    if (!run) return c.json(notFound(runId), 404);
    return frameStreamResponse({
      store: context.store,
      feeds: context.runFeeds,
      runId,
      after,
      followAll: c.req.query("follow") === "all",
      closing: context.closing,
      headers: { "x-run-id": runId, "x-thread-id": run.threadId },
    });
  });

  app.get("/agent/runs/:runId/checkpoints", async (c) => {
    const runId = c.req.param("runId");
    if (!(await owned(runId, c.get("actorId")))) return c.json(notFound(runId), 404);
    const checkpoints = await context.store.checkpoints.list(runId);
    return c.json({ runId, checkpoints: checkpoints.map((checkpoint) => checkpoint.name) });
  });

  app.post("/agent/runs/:runId/cancel", async (c) => {
    const runId = c.req.param("runId");
    const run = await owned(runId, c.get("actorId"));
    if (!run) return c.json(notFound(runId), 404);
    const status = await context.store.runs.cancel(runId);
    if (status === "cancelled") return c.json({ runId, status: "cancelled" });
    // A running run is flagged, and the process running it aborts its model call and tool in
    // flight: the run ends cancelled at once, whatever the call was doing.
    if (status === "running") {
      await context.worker.cancel(runId);
      return c.json({ runId, status: "cancelling" }, 202);
    }
    const current = await context.store.runs.get(runId);
    return c.json(
      { error: `run ${runId} has already ended as ${current?.status}`, runId, status: current?.status },
      409,
    );
  });
}
