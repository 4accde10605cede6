// LangGraph JS with its PostgreSQL checkpointer: node "ask" calls interrupt(); the answer is
// invoke(new Command({ resume })), which runs "ask" again (interrupt() now returns the answer)
// and then node "continue". Measured with durability "sync" (each checkpoint written before the
// next step starts) and with the default ("async": written in the background, so the resume is
// not yet durable when the next step begins).
import { Annotation, Command, END, interrupt, START, StateGraph } from "@langchain/langgraph";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { BURST, markContinued, measure, readArguments, report, sleep } from "./measure";

const { url, samples, parked, clients, postgres } = readArguments();

const State = Annotation.Root({
  id: Annotation<string>(),
  answer: Annotation<string>(),
});

async function run(durability: "sync" | "async") {
  const saver = PostgresSaver.fromConnString(url);
  await saver.setup();
  const graph = new StateGraph(State)
    .addNode("ask", () => ({ answer: interrupt<string, string>("May I go on?") }))
    .addNode("continue", (state) => {
      markContinued(state.id);
      return {};
    })
    .addEdge(START, "ask")
    .addEdge("ask", "continue")
    .addEdge("continue", END)
    .compile({ checkpointer: saver });
  const sleeper = new StateGraph(State)
    .addNode("wait", async () => {
      await sleep(BURST.stepMs);
      return {};
    })
    .addEdge(START, "wait")
    .addEdge("wait", END)
    .compile({ checkpointer: saver });
  const config = (id: string) => ({ configurable: { thread_id: id }, durability });
  return measure(
    {
      async park(id) {
        await graph.invoke({ id }, config(id));
      },
      async answer(id) {
        await graph.invoke(new Command({ resume: "yes" }), config(id));
      },
      // The node waits the burst's second itself: a graph's nodes take no arguments of their own.
      async sleeper(id) {
        await sleeper.invoke({ id }, config(id));
      },
      close: () => saver.end(),
    },
    { samples, parked, clients, prefix: `langgraph-${durability}`, ...(postgres ? { postgres } : {}) },
  );
}

report({ "langgraph-sync": await run("sync"), "langgraph-async": await run("async") });
