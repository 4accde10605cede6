import { crashAtEveryCheckpoint } from "./support/crash-scenario";
import { sideEffectOnce } from "./support/side-effect";

crashAtEveryCheckpoint({
  name: "crash_tool",
  agent: "operator",
  text: "Purge the pages cache",
  journal: [
    "persist:run:start",
    "stream:step-start:0",
    "persist:toolcall:call-0-0-<run>",
    "signal:tool:<run>:call-0-0-<run>",
    "persist:toolexec:call-0-0-<run>",
    "stream:step-start:1",
  ],
  settle: (client, toolCallId) => client.post("/agent/tool-call/approve", { toolCallId }),
  ...sideEffectOnce("purge_cache", { purged: "pages", hours: 24 }),
});
