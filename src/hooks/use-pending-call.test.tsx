// @vitest-environment jsdom
import { act, cleanup, renderHook, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { waitingApproval } from "@/components/ui/inbox.fixture";
import type { CallView } from "@/lib/prepick/core/inbox";
import { ToolCallClient } from "@/lib/prepick/transport/tool-call-client";
import { usePendingCall } from "./use-pending-call";

afterEach(() => cleanup());

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

/**
 * A client whose server answers each read of the call with the next of `answers` (the last one
 * again once they run out): `503` for a server that cannot read its store, `404`, or the call.
 */
function clientAnswering(answers: (503 | 404 | CallView)[]) {
  const paths: string[] = [];
  const client = new ToolCallClient({
    actorId: "ada",
    fetch: async (input) => {
      paths.push(new URL(String(input), "http://stand-in").pathname);
      const answer = answers[Math.min(paths.length, answers.length) - 1];
      if (answer === 503) return json({ error: "the store is unavailable" }, 503);
      if (answer === 404) return json({ error: "no tool call call-1" }, 404);
      return json(answer);
    },
  });
  return { client, paths };
}

const waiting: CallView = { ...waitingApproval("thread-cache", "call-1"), output: null, settledAt: null };

describe("usePendingCall", () => {
  it("reads a call that could not be read again on retry, back through loading, and opens it", async () => {
    const { client, paths } = clientAnswering([503, 503, waiting]);
    const { result } = renderHook(() => usePendingCall({ client, callId: "call-1", drafts: null }));
    await waitFor(() => expect(result.current.status).toBe("failed"));
    expect(paths).toEqual(["/agent/tool-calls/call-1"]);

    const first = result.current;
    if (first.status !== "failed") throw new Error("not failed");
    expect(first.error).toMatch(/the store is unavailable/);
    act(() => first.retry());
    expect(result.current.status).toBe("loading");
    await waitFor(() => expect(result.current.status).toBe("failed"));
    expect(paths).toHaveLength(2);

    const second = result.current;
    if (second.status !== "failed") throw new Error("not failed");
    // The same function each time: a button may hold on to it.
    expect(second.retry).toBe(first.retry);
    act(() => second.retry());
    await waitFor(() => expect(result.current.status).toBe("waiting"));
    expect(paths).toEqual(Array(3).fill("/agent/tool-calls/call-1"));
    const opened = result.current;
    if (opened.status !== "waiting") throw new Error("not waiting");
    expect(opened.view.id).toBe("call-1");
    expect(opened.item.block.type).toBe("approval");
  });

  it("offers no retry for a call that is not there: the server's 404 would not change", async () => {
    const { client, paths } = clientAnswering([404]);
    const { result } = renderHook(() => usePendingCall({ client, callId: "call-1", drafts: null }));
    await waitFor(() => expect(result.current.status).toBe("not-found"));
    expect(result.current).not.toHaveProperty("retry");
    expect(paths).toHaveLength(1);
  });
});
