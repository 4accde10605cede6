import { intakeRequest } from "prepick/core";
import type { RunRow } from "../store/rows";
import type { AgentApp, RouteContext } from "./context";

/** How a run shows on its assistant message. */
function messageStatus(run: RunRow): "running" | "parked" | "completed" | "failed" | "cancelled" {
  return run.status === "ready" ? "running" : run.status;
}

/** The read routes: the approvals inbox, a thread for hydrating a page, and the hosted agents. */
export function readRoutes(app: AgentApp, context: RouteContext): void {
  app.get("/agent/approvals", async (c) => {
    return c.json({ approvals: await context.store.toolCalls.pendingFor(c.get("actorId")) });
  });

  app.get("/agent/threads/:threadId", async (c) => {
    const threadId = c.req.param("threadId");
    const thread = await context.store.threads.get(threadId);
    if (!thread || thread.actorId !== c.get("actorId")) {
      return c.json({ error: `No thread ${threadId} is yours.` }, 404);
    }
    const messages: unknown[] = [];
    for (const run of await context.store.runs.ofThread(threadId)) {
      const frames = await context.store.frames.after(run.id, 0, 100_000);
      messages.push(run.userMessage, {
        id: run.messageId,
        role: "assistant",
        runId: run.id,
        status: messageStatus(run),
        lastSeq: frames.at(-1)?.seq ?? 0,
        frames,
      });
    }
    return c.json({ threadId, agent: thread.agent, messages });
  });

  app.get("/agent/agents", (c) =>
    c.json({
      agents: context.agents.map((agent) => ({
        name: agent.name,
        ask: agent.ask,
        tools: agent.tools.map((tool) => ({
          name: tool.name,
          description: tool.description,
          // A function decides per call: the tool may ask.
          needsApproval: tool.needsApproval !== undefined && tool.needsApproval !== false,
        })),
        ...(agent.intake ? { intake: { ...intakeRequest(agent.intake), when: agent.intake.when } } : {}),
      })),
    }),
  );
}
