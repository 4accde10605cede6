import { z } from "zod";
import { demoBookingIntake, refactorerIntake } from "../../src/core/spec-examples";
import { defineAgent, defineTool } from "./define-agent";
import type { AgentConfig } from "./types";

const calls = new Map<string, number>();

function record(toolName: string) {
  calls.set(toolName, (calls.get(toolName) ?? 0) + 1);
}

/** How many times this process ran a demo tool's handler; what the demo tools "change". */
export function demoToolCalls(toolName: string): number {
  return calls.get(toolName) ?? 0;
}

/** The spec's intake example, as its picture shows it: asked once, on the first turn of a thread. */
export const refactorer = defineAgent({
  name: "refactorer",
  systemPrompt: "You refactor TypeScript.",
  intake: refactorerIntake,
});

/** The spec's typed questions: a whole number in bounds, a required email, a capped free text. */
export const booking = defineAgent({
  name: "booking",
  systemPrompt: "You book seats for the user.",
  intake: demoBookingIntake,
});

/** No intake: the model itself calls `ask` when a request is ambiguous. */
export const planner = defineAgent({
  name: "planner",
  systemPrompt:
    "You plan work. When a request could be met in several ways and the choice matters, ask first.",
  ask: true,
});

/**
 * Purges the demo cache; changes something outside the run, so a person approves it first, and
 * may change which cache and how far back before it runs (its input is editable).
 */
export const purgeCache = defineTool({
  name: "purge_cache",
  description: "Purges one of the site's caches. Visitors see slower pages until it warms up again.",
  inputSchema: z.object({
    cache: z
      .union([
        z.literal("pages").meta({ title: "Pages" }),
        z.literal("images").meta({ title: "Images" }),
        z.literal("all").meta({ title: "Every cache" }),
      ])
      .describe("Which cache should I purge?"),
    hours: z.number().int().min(1).max(168).default(24).describe("How far back, in hours?"),
  }),
  keywords: ["purge", "flush"],
  sideEffects: true,
  needsApproval: true,
  editable: true,
  execute: ({ cache, hours }) => {
    record("purge_cache");
    return { purged: cache, hours };
  },
});

/** Reads the demo services' status; harmless, so it runs without approval. */
export const readStatus = defineTool({
  name: "read_status",
  description: "Reads whether a service is healthy.",
  inputSchema: z.object({ service: z.enum(["api", "web", "worker"]).describe("Which service.") }),
  keywords: ["status", "health"],
  execute: ({ service }) => {
    record("read_status");
    return { service, healthy: true };
  },
});

/** Tools with and without approval. */
export const operator = defineAgent({
  name: "operator",
  systemPrompt: "You operate the site: read service status and purge caches when asked.",
  tools: [purgeCache, readStatus],
});

/** The agents `npm start` serves. */
export const DEMO_AGENTS: readonly AgentConfig[] = [refactorer, booking, planner, operator];
