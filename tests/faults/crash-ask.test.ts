import { crashAtEveryCheckpoint } from "./support/crash-scenario";

crashAtEveryCheckpoint({
  name: "crash_ask",
  agent: "planner",
  text: "Refactor the parser",
  journal: [
    "persist:run:start",
    "stream:step-start:0",
    "persist:toolcall:call-0-0-<run>",
    "stream:elicitation:call-0-0-<run>",
    "signal:tool:<run>:call-0-0-<run>",
    "persist:toolexec:call-0-0-<run>",
    "stream:step-start:1",
  ],
  settle: (client, toolCallId) =>
    client.post("/agent/tool-call/answer", { toolCallId, answers: { scope: ["importers"] } }),
});
