import { intakeRequest } from "prepick/core";
import type { AgentApp, RouteContext } from "./context";

/** The read routes: the approvals inbox and the hosted agents (a thread's read is `thread-route.ts`). */
export function readRoutes(app: AgentApp, context: RouteContext): void {
  app.get("/agent/approvals", async (c) => {
    return c.json({ approvals: await context.store.toolCalls.pendingFor(c.get("actorId")) });
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
