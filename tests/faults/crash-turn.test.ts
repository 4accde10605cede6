import { crashAtEveryCheckpoint } from "./support/crash-scenario";
import { sideEffectOnce } from "./support/side-effect";

// One turn that parks three times: its intake, the model's own questions, then the approval of a
// tool with a side effect (the turn's last tool execution; the one before it is the model's `ask`).
crashAtEveryCheckpoint({
  name: "crash_turn",
  agent: "releaser",
  agentsModule: "tests/faults/support/release-agent.ts",
  text: "Plan the release, then deploy the web service",
  journal: [
    "persist:run:start",
    "intake:ask",
    "signal:tool:<run>:intake-<run>",
    "intake:answers",
    "stream:step-start:0",
    "persist:toolcall:call-0-0-<run>",
    "stream:elicitation:call-0-0-<run>",
    "signal:tool:<run>:call-0-0-<run>",
    "persist:toolexec:call-0-0-<run>",
    "stream:step-start:1",
    "persist:toolcall:call-1-0-<run>",
    "signal:tool:<run>:call-1-0-<run>",
    "persist:toolexec:call-1-0-<run>",
    "stream:step-start:2",
  ],
  settle: (client, toolCallId, name) => {
    if (name !== "ask") return client.post("/agent/tool-call/approve", { toolCallId });
    // The intake is answered with a change; the model's own questions are confirmed as pre-picked.
    const answers = toolCallId.startsWith("intake-") ? { answers: { window: ["tonight"] } } : {};
    return client.post("/agent/tool-call/answer", { toolCallId, ...answers });
  },
  ...sideEffectOnce("deploy", { deployed: "web" }),
});
