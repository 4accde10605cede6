import { crashAtEveryCheckpoint } from "./support/crash-scenario";
import { sideEffectOnce } from "./support/side-effect";

// An editable approval approved with edits: killed at every checkpoint, the run finishes as the
// uninterrupted one did, the tool having run once with the edited input journaled with the signal.
crashAtEveryCheckpoint({
  name: "crash_edit",
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
  settle: (client, toolCallId) =>
    client.post("/agent/tool-call/approve", { toolCallId, answers: { cache: ["images"], hours: ["6"] } }),
  ...sideEffectOnce("purge_cache", { purged: "images", hours: 6 }),
});
