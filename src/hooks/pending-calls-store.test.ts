import { describe, expect, it } from "vitest";
import type { PendingCall } from "@/lib/prepick/core/inbox";
import { specIntake } from "@/lib/prepick/core/spec-examples";
import type { ToolCallResponse } from "@/lib/prepick/transport/tool-call-client";
import { PendingCallsStore } from "./pending-calls-store";

function pendingCall(id: string, threadId = `thread-${id}`): PendingCall {
  return {
    id,
    runId: `run-${id}`,
    messageId: `message-${id}`,
    threadId,
    agent: "refactorer",
    name: "ask",
    toolType: "action",
    status: "pending_approval",
    input: { source: "intake", questions: specIntake.questions },
    askedAt: "2026-01-05T10:00:00.000Z",
    posted: { kind: "elicitation", id, request: { source: "intake", questions: [...specIntake.questions] } },
  };
}

const conflict: ToolCallResponse = {
  ok: false,
  failure: {
    kind: "conflict",
    status: 409,
    error: "already settled",
    toolCallId: "b",
    toolStatus: "skipped",
    output: null,
  },
};

function storeWith(answer: () => Promise<ToolCallResponse> = async () => conflict) {
  const client = { answer, skip: answer, approve: answer, reject: answer };
  return new PendingCallsStore(client);
}

const ids = (store: PendingCallsStore) => store.getSnapshot().calls.map(({ call }) => call.id);

describe("PendingCallsStore", () => {
  it("takes a fresh connection's calls as the whole list once synced, and keeps each call's block", () => {
    const store = storeWith();
    store.apply({ kind: "waiting", call: pendingCall("a") }, true);
    store.apply({ kind: "waiting", call: pendingCall("b") }, true);
    expect(store.getSnapshot().status).toBe("connecting");
    expect(ids(store)).toEqual([]);
    store.apply({ kind: "synced" }, true);
    expect(store.getSnapshot().status).toBe("live");
    expect(ids(store)).toEqual(["a", "b"]);
    const blockOfA = store.getSnapshot().calls[0]?.block;

    // A reconnect afresh (the feed had no id yet) replaces the list: b was settled meanwhile.
    store.disconnected();
    expect(store.getSnapshot().status).toBe("reconnecting");
    store.apply({ kind: "waiting", call: pendingCall("a") }, true);
    store.apply({ kind: "waiting", call: pendingCall("c") }, true);
    store.apply({ kind: "synced" }, true);
    expect(ids(store)).toEqual(["a", "c"]);
    expect(store.getSnapshot().calls[0]?.block).toBe(blockOfA);
  });

  it("adds a call that starts waiting once, and drops a settled one at once", () => {
    const store = storeWith();
    store.apply({ kind: "synced" }, true);
    store.apply({ kind: "waiting", call: pendingCall("a") }, false);
    store.apply({ kind: "waiting", call: pendingCall("a") }, false);
    store.apply({ kind: "waiting", call: pendingCall("b") }, false);
    expect(ids(store)).toEqual(["a", "b"]);
    store.apply({ kind: "settled", id: "a", threadId: "thread-a", status: "answered" }, false);
    expect(ids(store)).toEqual(["b"]);
    // A settlement of a call the list never had changes nothing.
    const before = store.getSnapshot();
    store.apply({ kind: "settled", id: "zzz", threadId: "thread-z", status: "skipped" }, false);
    expect(store.getSnapshot()).toBe(before);
  });

  it("drops a call answered here when the server says someone settled it first", async () => {
    const store = storeWith();
    store.apply({ kind: "waiting", call: pendingCall("b") }, false);
    const block = store.getSnapshot().calls[0]?.block;
    if (block?.type !== "elicitation") throw new Error("expected a question set");
    await block.submit();
    expect(ids(store)).toEqual([]);
  });
});
