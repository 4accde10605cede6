import type { Store } from "../store/store";

/**
 * Starts a `ready` run named `name` on a new thread (`run-<name>`, `thread-<name>`,
 * `message-<name>`) owned by `actorId`, straight in the store; returns its id. With `owner`, the
 * run is `running` under that lease instead, as a worker that claimed it would hold it.
 */
export async function startTestRun(
  store: Store,
  name: string,
  actorId = "ada",
  owner?: string,
): Promise<string> {
  const started = await store.runs.start(
    {
      threadId: `thread-${name}`,
      actorId,
      agent: "agent",
      defaultAgent: "agent",
      hostedAgents: ["agent"],
      runId: `run-${name}`,
      messageId: `message-${name}`,
      userMessage: { id: `message-${name}`, role: "user", parts: [{ type: "text", text: name }] },
    },
    owner === undefined ? undefined : { owner, leaseMs: 60_000 },
  );
  if (started.kind !== "started") throw new Error(`the run ${name} did not start: ${started.kind}`);
  return started.run.id;
}
