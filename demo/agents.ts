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

/** What the demo says about an agent, and a first message that shows what it does. */
export interface AgentNote {
  /** One line on what the agent shows. */
  summary: string;
  /** Messages to try, each showing a behaviour. */
  tryMessages: string[];
}

/** Notes for the demo agents; an agent the demo does not know still works, without a note. */
export const AGENT_NOTES: Record<string, AgentNote> = {
  refactorer: {
    summary:
      "Asks its configured intake on the first turn of a thread: scope, tests and API, all pre-picked.",
    tryMessages: ["Refactor the date helpers in utils.ts"],
  },
  booking: {
    summary: "An intake of typed questions: a bounded number, a required email and a capped note.",
    tryMessages: ["Book seats for the team dinner on Friday"],
  },
  planner: {
    summary: "No intake: the model calls ask itself when a request could be met several ways.",
    tryMessages: ["Plan the migration to the new billing API", "Write the release notes"],
  },
  operator: {
    summary: "Runs tools: reading a status runs at once; purging a cache waits for your approval.",
    tryMessages: ["Purge the images cache", "Read the status of the api"],
  },
};
