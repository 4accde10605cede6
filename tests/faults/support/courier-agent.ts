// The agent of the suite that kills a process while it holds runs, hosted through
// PREPICK_AGENTS_MODULE: its one tool changes something outside the run, with no approval, and
// appends the call's idempotency key to the file COURIER_LOG names, so a test counts its runs.
import { appendFileSync } from "node:fs";
import { defineAgent, defineTool } from "prepick/server";
import { z } from "zod";

/** Sends a note: a side effect, run at most once per call whatever process runs it. */
export const sendNote = defineTool({
  name: "send_note",
  description: "Sends a note to the team.",
  inputSchema: z.object({}),
  keywords: ["send"],
  sideEffects: true,
  execute: (_input, context) => {
    const log = process.env.COURIER_LOG;
    if (log) appendFileSync(log, `${context.idempotencyKey}\n`);
    return { sent: true };
  },
});

export const agents = [defineAgent({ name: "courier", systemPrompt: "You send notes.", tools: [sendNote] })];
