import { z } from "zod";
import { IntakeWhenSchema } from "@/lib/prepick/core/intake";
import { ElicitationRequestSchema } from "@/lib/prepick/core/question";

/** One agent as `GET /agent/agents` lists it. */
export const HostedAgentSchema = z.object({
  /** The agent's name, sent as `agent` with each chat request. */
  name: z.string(),
  /** Whether the model may call `ask`. */
  ask: z.boolean().optional(),
  /** The agent's intake, as the questions it will post, if it has one. */
  intake: ElicitationRequestSchema.extend({ when: IntakeWhenSchema.optional() }).optional(),
  /** The tools the model may call, and whether a person approves each before it runs. */
  tools: z
    .array(z.object({ name: z.string(), description: z.string(), needsApproval: z.boolean() }))
    .optional(),
});

/** One agent as `GET /agent/agents` lists it. */
export type HostedAgent = z.infer<typeof HostedAgentSchema>;

const AgentListSchema = z.object({ agents: z.array(HostedAgentSchema) });

/** Reads the agents the server hosts; throws with the status or the shape that was wrong. */
export async function fetchAgents(signal?: AbortSignal): Promise<HostedAgent[]> {
  const response = await fetch("/agent/agents", {
    credentials: "same-origin",
    ...(signal ? { signal } : {}),
  });
  if (!response.ok) throw new Error(`GET /agent/agents answered ${response.status} ${response.statusText}`);
  const parsed = AgentListSchema.safeParse(await response.json());
  if (!parsed.success)
    throw new Error(`GET /agent/agents answered an unexpected shape: ${parsed.error.message}`);
  return parsed.data.agents;
}

/**
 * Messages to try with each demo agent, each showing a behaviour. They are what the person sends,
 * to an agent that reads English, so they stay English in every language of the page.
 */
export const TRY_MESSAGES: Record<string, string[]> = {
  refactorer: ["Refactor the date helpers in utils.ts"],
  booking: ["Book seats for the team dinner on Friday"],
  planner: ["Plan the migration to the new billing API", "Write the release notes"],
  operator: ["Purge the images cache", "Read the status of the api"],
};
