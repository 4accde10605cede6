import { z } from "zod";
import { contactQuestion, seatsQuestion, specIntake } from "../../src/core/spec-examples";
import type { AgentConfig } from "../agents/types";

/** The spec's refactorer: its written intake of two questions, asked at thread start. */
export const refactorer: AgentConfig = {
  name: "refactorer",
  systemPrompt: "You refactor TypeScript.",
  intake: specIntake,
};

/** An agent with typed intake questions, asked before every turn. */
export const booker: AgentConfig = {
  name: "booker",
  systemPrompt: "You book tables.",
  intake: {
    when: "every-turn",
    questions: [seatsQuestion, contactQuestion],
  },
};

/** An agent whose model may call `ask`, with no intake. */
export const asker: AgentConfig = { name: "asker", systemPrompt: "You answer questions.", ask: true };

/** Records every run of the side-effecting tool, so a test can count them. */
export const purges: string[] = [];

/** An agent with a tool that needs approval and a side-effecting tool. */
export const operator: AgentConfig = {
  name: "operator",
  systemPrompt: "You operate the cache.",
  tools: [
    {
      name: "purge_cache",
      description: "Purges the cache.",
      inputSchema: z.object({}),
      needsApproval: true,
      sideEffects: true,
      keywords: ["purge"],
      execute: (_input, context) => {
        purges.push(context.idempotencyKey);
        return { purged: true };
      },
    },
    {
      name: "read_stats",
      description: "Reads the cache's statistics.",
      inputSchema: z.object({}),
      keywords: ["stats"],
      execute: () => ({ hits: 3 }),
    },
  ],
};

/** A plain agent: neither intake nor ask. */
export const plain: AgentConfig = { name: "plain", systemPrompt: "You answer." };

/** How many times the slow tool's handler started. */
export const slowGate = { started: 0 };

let held: Promise<void> = Promise.resolve();

/** An agent whose one tool waits for {@link slowGate}, so a test can act while it runs. */
export const slow: AgentConfig = {
  name: "slow",
  systemPrompt: "You are slow.",
  tools: [
    {
      name: "wait_a_bit",
      description: "Waits.",
      inputSchema: z.object({}),
      keywords: ["wait"],
      execute: async () => {
        slowGate.started += 1;
        await held;
        return { waited: true };
      },
    },
  ],
};

/** Makes the slow tool wait until the returned function is called. */
export function holdSlowTool(): () => void {
  let release: () => void = () => undefined;
  held = new Promise<void>((resolve) => {
    release = resolve;
  });
  slowGate.started = 0;
  return release;
}

/** What the editable purge tool ran with, in order: a test reads the input each run used. */
export const editedPurges: { input: unknown; key: string }[] = [];

/**
 * An agent whose purge tool needs approval and lets the person edit which cache, how far back, a
 * note and a region (a refinement no question shows) before it runs.
 */
export const editor: AgentConfig = {
  name: "editor",
  systemPrompt: "You operate the cache.",
  tools: [
    {
      name: "purge_cache",
      description: "Purges one cache back to a given age.",
      inputSchema: z.object({
        cache: z
          .union([
            z.literal("pages").meta({ title: "Pages" }),
            z.literal("images").meta({ title: "Images" }),
            z.literal("all").meta({ title: "Everything" }),
          ])
          .describe("Which cache should I purge?"),
        hours: z.number().int().min(1).max(72).default(24).describe("How far back, in hours?"),
        note: z.string().max(40).optional().describe("A note for the log"),
        region: z
          .string()
          .refine((region) => region !== "moon", "there are no caches on the moon")
          .default("eu")
          .describe("Which region?"),
      }),
      editable: true,
      needsApproval: true,
      sideEffects: true,
      keywords: ["purge"],
      execute: (input: { cache: string; hours: number }, context) => {
        editedPurges.push({ input, key: context.idempotencyKey });
        return { purged: input.cache, hours: input.hours };
      },
    },
  ],
};
