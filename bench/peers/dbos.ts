// DBOS Transact: a workflow waits with DBOS.recv; the answer is DBOS.send. The next step is a
// DBOS.runStep, which begins once recv has returned (recv records what it received as the
// workflow's step output first). DBOS.send has committed the message when it returns.
import { DBOS } from "@dbos-inc/dbos-sdk";
import { markContinued, measure, readArguments, report } from "./measure";

const { url, samples, parked, clients } = readArguments();

const waiter = DBOS.registerWorkflow(
  async (id: string) => {
    await DBOS.setEvent("parked", true);
    const answer = await DBOS.recv<string>("answer", 3600);
    await DBOS.runStep(async () => markContinued(id), { name: "continue" });
    return answer;
  },
  { name: "waiter" },
);

DBOS.setConfig({ name: "prepick-bench", systemDatabaseUrl: url, logLevel: "error" });
await DBOS.launch();
const figures = await measure(
  {
    async park(id) {
      await DBOS.startWorkflow(waiter, { workflowID: id })(id);
      await DBOS.getEvent(id, "parked", 60);
    },
    answer: (id) => DBOS.send(id, "yes", "answer"),
    close: () => DBOS.shutdown(),
  },
  { samples, parked, clients, prefix: "dbos" },
);
report({ dbos: figures });
