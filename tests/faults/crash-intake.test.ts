import { crashAtEveryCheckpoint } from "./support/crash-scenario";

crashAtEveryCheckpoint({
  name: "crash_intake",
  agent: "refactorer",
  text: "Refactor the parser",
  settle: (client, toolCallId) =>
    client.post("/agent/tool-call/answer", { toolCallId, answers: { scope: ["file"] } }),
});
