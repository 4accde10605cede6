// DBOS Transact: a workflow waits with DBOS.recv; the answer is DBOS.send. The next step is a
// DBOS.runStep, which begins once recv has returned (recv records what it received as the
// workflow's step output first). DBOS.send has committed the message when it returns.
import { DBOS } from "@dbos-inc/dbos-sdk";
import { markContinued, measure, readArguments, report, sleep } from "./measure";

const { url, samples, parked, clients, postgres } = readArguments();

const waiter = DBOS.registerWorkflow(
  async (id: string) => {
    await DBOS.setEvent("parked", true);
    const answer = await DBOS.recv<string>("answer", 3600);
    await DBOS.runStep(async () => markContinued(id), { name: "continue" });
    return answer;
  },
  { name: "waiter" },
);

const sleeper = DBOS.registerWorkflow(
  async (ms: number) => {
    await DBOS.runStep(() => sleep(ms), { name: "wait" });
  },
  { name: "sleeper" },
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
    async sleeper(id, ms) {
      await (await DBOS.startWorkflow(sleeper, { workflowID: id })(ms)).getResult();
    },
    close: () => DBOS.shutdown(),
  },
  { samples, parked, clients, prefix: "dbos", ...(postgres ? { postgres } : {}) },
);
report({ dbos: figures });
