import { crashAtEveryCheckpoint } from "./support/crash-scenario";
import { sideEffectOnce } from "./support/side-effect";

crashAtEveryCheckpoint({
  name: "crash_tool",
  agent: "operator",
  text: "Purge the pages cache",
  settle: (client, toolCallId) => client.post("/agent/tool-call/approve", { toolCallId }),
  ...sideEffectOnce("purge_cache", { purged: "pages" }),
});
