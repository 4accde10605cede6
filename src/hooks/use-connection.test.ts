// @vitest-environment jsdom
import { act, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { PendingCallsStatus } from "./pending-calls-store";
import { CONNECTION_BACK_MS, useConnection } from "./use-connection";

function setOnline(online: boolean) {
  vi.spyOn(navigator, "onLine", "get").mockReturnValue(online);
  window.dispatchEvent(new Event(online ? "online" : "offline"));
}

describe("useConnection", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it("is offline while the inbox feed is cut, back for a moment once it is live again, then online", () => {
    const { result, rerender } = renderHook(({ feed }) => useConnection(feed), {
      initialProps: { feed: "connecting" as PendingCallsStatus },
    });
    // The page's first connection is not a lost one.
    expect(result.current).toBe("online");
    rerender({ feed: "live" });
    expect(result.current).toBe("online");
    rerender({ feed: "reconnecting" });
    expect(result.current).toBe("offline");
    rerender({ feed: "live" });
    expect(result.current).toBe("back");
    act(() => vi.advanceTimersByTime(CONNECTION_BACK_MS - 1));
    expect(result.current).toBe("back");
    act(() => vi.advanceTimersByTime(1));
    expect(result.current).toBe("online");
  });

  it("follows the browser's offline and online events, and waits for the feed before saying it is back", () => {
    const { result, rerender } = renderHook(({ feed }) => useConnection(feed), {
      initialProps: { feed: "live" as PendingCallsStatus | undefined },
    });
    act(() => setOnline(false));
    expect(result.current).toBe("offline");
    // The feed noticed too; the network returns before the feed is open again: still offline.
    rerender({ feed: "reconnecting" });
    act(() => setOnline(true));
    expect(result.current).toBe("offline");
    rerender({ feed: "live" });
    expect(result.current).toBe("back");
    // Lost again while saying it is back: offline at once.
    rerender({ feed: "reconnecting" });
    expect(result.current).toBe("offline");
  });

  it("without a feed, reads the browser alone", () => {
    const { result } = renderHook(() => useConnection(undefined));
    expect(result.current).toBe("online");
    act(() => setOnline(false));
    expect(result.current).toBe("offline");
    act(() => setOnline(true));
    expect(result.current).toBe("back");
  });
});
