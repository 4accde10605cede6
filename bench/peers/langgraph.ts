// LangGraph JS with its PostgreSQL checkpointer: node "ask" calls interrupt(); the answer is
// invoke(new Command({ resume })), which runs "ask" again (interrupt() now returns the answer)
// and then node "continue". Measured with durability "sync" (each checkpoint written before the
// next step starts) and with the default ("async": written in the background, so the resume is
// not yet durable when the next step begins).
import { Annotation, Command, END, interrupt, START, StateGraph } from "@langchain/langgraph";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { markContinued, measure, readArguments, report } from "./measure";

const { url, samples, parked, clients } = readArguments();

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
  const config = (id: string) => ({ configurable: { thread_id: id }, durability });
  return measure(
    {
      async park(id) {
        await graph.invoke({ id }, config(id));
      },
      async answer(id) {
        await graph.invoke(new Command({ resume: "yes" }), config(id));
      },
      close: () => saver.end(),
    },
    { samples, parked, clients, prefix: `langgraph-${durability}` },
  );
}

report({ "langgraph-sync": await run("sync"), "langgraph-async": await run("async") });
