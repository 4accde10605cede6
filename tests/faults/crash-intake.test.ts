import { crashAtEveryCheckpoint } from "./support/crash-scenario";

crashAtEveryCheckpoint({
  name: "crash_intake",
  agent: "refactorer",
  text: "Refactor the parser",
  journal: [
    "persist:run:start",
    "intake:ask",
    "signal:tool:<run>:intake-<run>",
    "intake:answers",
    "stream:step-start:0",
  ],
  settle: (client, toolCallId) =>
    client.post("/agent/tool-call/answer", { toolCallId, answers: { scope: ["file"] } }),
});
