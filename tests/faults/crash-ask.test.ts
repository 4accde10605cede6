import { crashAtEveryCheckpoint } from "./support/crash-scenario";

crashAtEveryCheckpoint({
  name: "crash_ask",
  agent: "planner",
  text: "Refactor the parser",
  settle: (client, toolCallId) =>
    client.post("/agent/tool-call/answer", { toolCallId, answers: { scope: ["importers"] } }),
});
