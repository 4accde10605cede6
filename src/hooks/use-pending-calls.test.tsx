// @vitest-environment jsdom
import { act, cleanup, renderHook, waitFor } from "@testing-library/react";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { SequencedFrame } from "@/lib/prepick/core/frames";
import { readFrames } from "@/lib/prepick/transport/read-frames";
import { ToolCallClient } from "@/lib/prepick/transport/tool-call-client";
import { refactorer } from "../../server/testing/test-agents";
import { startAgentServer } from "./agent-server.fixture";
import type { ApprovalBlock, ElicitationBlock } from "./transcript-types";
import { usePendingCalls } from "./use-pending-calls";
import { useThreads } from "./use-threads";

const operator = {
  name: "operator",
  systemPrompt: "You operate the cache.",
  tools: [
    {
      name: "purge_cache",
      description: "Purges the cache.",
      inputSchema: z.object({}),
      needsApproval: true,
      keywords: ["purge"],
      execute: () => ({ purged: true }),
    },
  ],
};

let server: { url: string; close: () => Promise<void> };
beforeAll(async () => {
  server = await startAgentServer([refactorer, operator]);
}, 60_000);
afterAll(async () => {
  await server?.close();
});
afterEach(() => cleanup());

/** Reads a response's frames to the end. */
async function framesOf(response: Response): Promise<SequencedFrame[]> {
  const frames: SequencedFrame[] = [];
  const reader = readFrames(response.body as ReadableStream<Uint8Array>).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return frames;
    frames.push(value);
  }
}

/** Starts a conversation that waits: the refactorer's intake, or the operator's purge approval. */
async function startWaiting(actorId: string, agent: string, text: string) {
  const response = await fetch(`${server.url}/agent/chat`, {
    method: "POST",
    headers: { "x-actor-id": actorId, "content-type": "application/json" },
    body: JSON.stringify({ agent, message: { role: "user", parts: [{ type: "text", text }] } }),
  });
  const frames = await framesOf(response);
  expect(frames.at(-1)?.frame.kind).toBe("run-parked");
  return {
    runId: response.headers.get("x-run-id") ?? "",
    threadId: response.headers.get("x-thread-id") ?? "",
  };
}

/** One open tab of the actor: its own client and its own inbox. */
function openTab(actorId: string) {
  const client = new ToolCallClient({ api: server.url, actorId });
  return renderHook(() => {
    const inbox = usePendingCalls({ client, drafts: null });
    const threads = useThreads({ client, pending: inbox.calls });
    return { inbox, threads };
  });
}

describe("usePendingCalls and useThreads against the reference server", { timeout: 60_000 }, () => {
  it("keeps two tabs' inboxes live: a call answered in one leaves both, and its run goes on", async () => {
    const first = openTab("nora");
    const second = openTab("nora");
    await waitFor(() => expect(first.result.current.inbox.status).toBe("live"), { timeout: 10_000 });
    expect(first.result.current.inbox.count).toBe(0);

    const intake = await startWaiting("nora", "refactorer", "Refactor the lexer");
    const purge = await startWaiting("nora", "operator", "Please purge the cache");
    for (const tab of [first, second]) {
      await waitFor(() => expect(tab.result.current.inbox.count).toBe(2), { timeout: 5_000 });
    }
    const [question, approval] = first.result.current.inbox.calls;
    expect(question?.call).toMatchObject({ threadId: intake.threadId, agent: "refactorer" });
    expect(approval?.call).toMatchObject({ threadId: purge.threadId, agent: "operator" });
    const block = question?.block as ElicitationBlock;
    expect(block.type).toBe("elicitation");
    expect(block.questions.map(({ id }) => id)).toEqual(["scope", "tests"]);
    expect(approval?.block.type === "approval" && approval.block.toolName).toBe("purge_cache");

    // The conversation list knows both, with their waiting counts.
    await waitFor(() =>
      expect(first.result.current.threads.threads.map(({ id, waiting }) => [id, waiting])).toEqual([
        [purge.threadId, 1],
        [intake.threadId, 1],
      ]),
    );

    // Answered in place in the first tab: it leaves that list at once, and the second tab's soon.
    await act(async () => {
      block.setValue("scope", "file");
      await block.submit();
    });
    expect(first.result.current.inbox.calls.map(({ call }) => call.id)).toEqual([approval?.call.id]);
    await waitFor(() => expect(second.result.current.inbox.count).toBe(1), { timeout: 2_000 });
    expect(first.result.current.threads.threads.find(({ id }) => id === intake.threadId)?.waiting).toBe(0);

    // The run went on from the answer and finished.
    const rest = await framesOf(
      await fetch(`${server.url}/agent/runs/${intake.runId}/stream?follow=all`, {
        headers: { "x-actor-id": "nora" },
      }),
    );
    expect(rest.find(({ frame }) => frame.kind === "tool-output")?.frame).toMatchObject({
      output: { answers: { scope: ["file"] } },
    });
    expect(rest.at(-1)?.frame).toEqual({ kind: "run-finish", status: "completed" });

    // Approved from the second tab: both inboxes are empty.
    const secondApproval = second.result.current.inbox.calls[0]?.block as ApprovalBlock;
    await act(async () => {
      await secondApproval.approve();
    });
    for (const tab of [first, second]) {
      await waitFor(() => expect(tab.result.current.inbox.count).toBe(0), { timeout: 2_000 });
    }
  });

  it("shows only the actor's own calls", async () => {
    await startWaiting("otto", "refactorer", "Otto's lexer");
    const tab = openTab("pia");
    await waitFor(() => expect(tab.result.current.inbox.status).toBe("live"), { timeout: 10_000 });
    const mine = await startWaiting("pia", "refactorer", "Pia's lexer");
    await waitFor(() => expect(tab.result.current.inbox.count).toBe(1), { timeout: 5_000 });
    expect(tab.result.current.inbox.calls[0]?.call.threadId).toBe(mine.threadId);
  });
});
