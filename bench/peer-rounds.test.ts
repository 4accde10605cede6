import { beforeEach, describe, expect, it, vi } from "vitest";
import type { BenchRow } from "./result";

const calls: string[] = [];
vi.mock("./peers", () => ({
  measurePeers: vi.fn(async () => {
    calls.push("peers");
    return {};
  }),
}));

const { inPeerRounds, medianRound, PEER_ROUNDS } = await import("./peer-rounds");

function rows(ratio: string, other: string): BenchRow[] {
  const row = (id: string, value: string): BenchRow => ({
    id,
    metric: id,
    baseline: "1 ms",
    ours: value,
    ratio: value,
    target: "≤ 1×",
    pass: true,
  });
  return [row("a.by", ratio), row("a.other", other)];
}

describe("medianRound", () => {
  it("keeps every row of the round whose row has the median ratio, naming every round's ratio", () => {
    const chosen = medianRound([rows("1.4 ×", "x"), rows("0.9 ×", "y"), rows("1.1 ×", "z")], "a.by");
    expect(chosen.map((row) => row.ours)).toEqual(["1.1 ×", "z"]);
    expect(chosen[0]?.metric).toBe("a.by; the median of 3 rounds (ratios 1.4, 0.9, 1.1)");
    expect(chosen[1]?.metric).toBe("a.other; from the same round as a.by");
  });

  it("takes the lower middle of an even number of rounds", () => {
    expect(medianRound([rows("2 ×", "x"), rows("1 ×", "y")], "a.by")[1]?.ours).toBe("y");
  });

  it("refuses rounds where the row is missing or has no ratio", () => {
    expect(() => medianRound([rows("1 ×", "x"), rows("—", "y")], "a.by")).toThrow(/got 1, NaN/);
    expect(() => medianRound([rows("1 ×", "x")], "a.missing")).toThrow(/a.missing/);
  });
});

describe("inPeerRounds", () => {
  beforeEach(() => {
    calls.length = 0;
  });

  it("measures the peers afresh each round, after ours in odd rounds and before ours in even ones", async () => {
    let round = 0;
    const chosen = await inPeerRounds("a.by", async (peers) => {
      round += 1;
      calls.push(`ours ${round}`);
      await peers();
      await peers(); // asked twice in a round, measured once
      return rows(`${[3, 1, 2][round - 1]} ×`, `round ${round}`);
    });
    expect(PEER_ROUNDS).toBe(3);
    expect(calls).toEqual(["ours 1", "peers", "peers", "ours 2", "ours 3", "peers"]);
    expect(chosen[1]?.ours).toBe("round 3");
  });
});
