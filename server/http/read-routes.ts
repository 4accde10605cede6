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
        ...(agent.intake ? { intake: { ...intakeRequest(agent.intake), when: agent.intake.when } } : {}),
      })),
    }),
  );
}
