// What one model call costs the server's main thread, by the way the loop calls the provider:
// the AI SDK's `streamText` (one step, no tool execution), its lower-level
// `experimental_streamLanguageModelCall`, and the provider's own `doStream` driven by the loop
// (server/loop/model-call.ts). The model is the embedded scripted one at no latency, so the figure
// is the calling layer's own work: prompt conversion, tools, the stream's parts. Rounds alternate,
// and the table keeps the median round. `npx tsx bench/model-call-cost.ts` runs it alone.
import {
  type ModelMessage,
  experimental_streamLanguageModelCall as streamLanguageModelCall,
  streamText,
} from "ai";
import { DEMO_AGENTS } from "prepick/server";
import { checkAgents } from "../server/agents/check-agents";
import { modelToolsOf } from "../server/agents/model-tools";
import { startModelCall } from "../server/loop/model-call";
import { createScriptedModel } from "../server/model/scripted-model";
import { type BenchRow, figure, median } from "./result";

const CALLS = 1_000;
const ROUNDS = 5;

const model = createScriptedModel();
const agent = checkAgents(DEMO_AGENTS, { ask: false }).find((each) => each.name === "planner");
if (!agent) throw new Error("the demo's planner agent is missing");
const tools = modelToolsOf(agent);
const messages: ModelMessage[] = [{ role: "user", content: [{ type: "text", text: "Say hello" }] }];

type Way = () => Promise<number>;

/** Each way reads the whole stream and returns how many parts it saw (so none is optimised away). */
const WAYS: Record<string, Way> = {
  streamText: async () => {
    const result = streamText({ model, system: agent.systemPrompt, messages, tools });
    let parts = 0;
    for await (const _ of result.fullStream) parts += 1;
    return parts;
  },
  streamLanguageModelCall: async () => {
    const { stream } = await streamLanguageModelCall({ model, system: agent.systemPrompt, messages, tools });
    let parts = 0;
    for await (const _ of stream) parts += 1;
    return parts;
  },
  doStream: async () => {
    const stream = await startModelCall({ model, agent, messages });
    const reader = stream.getReader();
    let parts = 0;
    for (let next = await reader.read(); !next.done; next = await reader.read()) parts += 1;
    return parts;
  },
};

/** Main-thread CPU per call, in ms, over `CALLS` calls made one after another. */
async function perCall(way: Way): Promise<number> {
  const before = process.threadCpuUsage();
  for (let index = 0; index < CALLS; index++) await way();
  const used = process.threadCpuUsage(before);
  return (used.user + used.system) / 1000 / CALLS;
}

/** The main-thread CPU of one model call by each way, median of alternating rounds. */
export async function modelCallCost(): Promise<BenchRow[]> {
  for (const way of Object.values(WAYS)) for (let index = 0; index < 200; index++) await way();
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(WAYS).map((name) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, way] of Object.entries(WAYS)) samples[name]?.push(await perCall(way));
  }
  const direct = median(samples.doStream ?? []);
  return Object.entries(samples).map(([name, values]) => ({
    id: `model-call.cpu.${name.toLowerCase()}`,
    metric: `Main-thread CPU of one model call through ${name} (scripted model, no latency)`,
    baseline: `${figure(direct, "ms", 3)} (doStream driven by the loop)`,
    ours: figure(median(values), "ms", 3),
    ratio: figure(median(values) / direct, "×"),
    target: "—",
    pass: "reported",
  }));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await modelCallCost()) console.log(`${row.metric}: ${row.ours} (${row.ratio})`);
}
