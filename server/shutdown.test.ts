import { describe, expect, it } from "vitest";
import { createApp } from "./app";
import { booker } from "./testing/test-agents";

describe("a shutdown under load", () => {
  it("finishes every request in flight or refuses it with 503 and Retry-After, never a 500", {
    timeout: 180_000,
  }, async () => {
    const prepick = await createApp({ agents: [booker], stopGraceMs: 500, sweepMs: 3_600_000 });
    const request = (actor: string) =>
      prepick.app.fetch(
        new Request("http://prepick.test/agent/approvals", { headers: { "x-actor-id": actor } }),
      );
    const outcomes: string[] = [];
    const record = async (response: Response | Promise<Response>) => {
      const answered = await response;
      await answered.arrayBuffer();
      outcomes.push(
        `${answered.status}${answered.status === 503 ? ` retry-after=${answered.headers.get("retry-after")}` : ""}`,
      );
    };
    // Requests in flight when the shutdown begins, and requests that keep arriving while it runs.
    const inFlight = Array.from({ length: 32 }, (_, index) => record(request(`actor-${index}`)));
    const closing = prepick.close();
    const arriving: Promise<void>[] = [];
    let done = false;
    void closing.then(() => {
      done = true;
    });
    while (!done) {
      arriving.push(record(request("late")));
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    arriving.push(record(request("after")));
    await Promise.all([closing, ...inFlight, ...arriving]);
    const unexpected = outcomes.filter((outcome) => outcome !== "200" && outcome !== "503 retry-after=1");
    expect(unexpected, [...new Set(outcomes)].join(", ")).toEqual([]);
    expect(outcomes.slice(0, 32).filter((outcome) => outcome === "200").length).toBeGreaterThan(0);
    expect(outcomes.at(-1)).toBe("503 retry-after=1");
  });
});
