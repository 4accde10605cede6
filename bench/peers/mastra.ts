// Mastra workflows with @mastra/pg: step "ask" suspends; the answer is run.resume() on a run
// loaded by id (as an HTTP handler would), which runs "ask" again with the resume data and then
// step "continue". Mastra writes the workflow's snapshot when a run suspends and when it ends.
import { Mastra } from "@mastra/core";
import { createStep, createWorkflow } from "@mastra/core/workflows";
import { PostgresStore } from "@mastra/pg";
import { z } from "zod";
import { markContinued, measure, readArguments, report, sleep } from "./measure";

const { url, samples, parked, clients, postgres } = readArguments();

const ids = z.object({ id: z.string() });
const ask = createStep({
  id: "ask",
  inputSchema: ids,
  outputSchema: ids,
  resumeSchema: z.object({ answer: z.string() }),
  execute: async ({ inputData, resumeData, suspend }) => {
    if (!resumeData) return await suspend({});
    return inputData;
  },
});
const next = createStep({
  id: "continue",
  inputSchema: ids,
  outputSchema: ids,
  execute: async ({ inputData }) => {
    markContinued(inputData.id);
    return inputData;
  },
});
const waiter = createWorkflow({ id: "waiter", inputSchema: ids, outputSchema: ids }).then(ask).then(next).commit();

const waits = z.object({ ms: z.number() });
const wait = createStep({
  id: "wait",
  inputSchema: waits,
  outputSchema: waits,
  execute: async ({ inputData }) => {
    await sleep(inputData.ms);
    return inputData;
  },
});
const sleeperFlow = createWorkflow({ id: "sleeper", inputSchema: waits, outputSchema: waits }).then(wait).commit();

const storage = new PostgresStore({ id: "prepick-bench", connectionString: url });
const mastra = new Mastra({ workflows: { waiter, sleeper: sleeperFlow }, storage, logger: false });
const workflow = mastra.getWorkflow("waiter");
const sleeper = mastra.getWorkflow("sleeper");

const figures = await measure(
  {
    async park(id) {
      const run = await workflow.createRun({ runId: id });
      const result = await run.start({ inputData: { id } });
      if (result.status !== "suspended") throw new Error(`the workflow did not suspend: ${result.status}`);
    },
    async answer(id) {
      const run = await workflow.createRun({ runId: id });
      await run.resume({ step: "ask", resumeData: { answer: "yes" } });
    },
    async sleeper(id, ms) {
      const run = await sleeper.createRun({ runId: id });
      const result = await run.start({ inputData: { ms } });
      if (result.status !== "success") throw new Error(`the sleeper ended ${result.status}`);
    },
    close: async () => {
      await storage.close?.();
    },
  },
  { samples, parked, clients, prefix: "mastra", ...(postgres ? { postgres } : {}) },
);
report({ mastra: figures });
