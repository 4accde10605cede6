import { describe, expect, it } from "vitest";
import { approvalTransition } from "./approval-machine";
import type { ApprovalEvent, ApprovalState } from "./transcript-types";

describe("approvalTransition", () => {
  const states: Record<ApprovalState["status"], ApprovalState> = {
    idle: { status: "idle" },
    submitting: { status: "submitting", approved: false, reason: "too risky" },
    failed: { status: "failed", approved: false, reason: "too risky", error: "offline" },
    settled: { status: "settled", approved: true, conflict: false },
  };
  const events: Record<ApprovalEvent["type"], ApprovalEvent> = {
    decide: { type: "decide", approved: true },
    succeed: { type: "succeed" },
    refuse: { type: "refuse" },
    conflict: { type: "conflict", approved: true },
    fail: { type: "fail", error: "offline" },
    retry: { type: "retry" },
    dismiss: { type: "dismiss" },
    settle: { type: "settle", approved: false, reason: "cancelled" },
  };
  const settledOutside: ApprovalState = {
    status: "settled",
    approved: false,
    reason: "cancelled",
    conflict: false,
  };
  const table: Record<ApprovalState["status"], Record<ApprovalEvent["type"], ApprovalState | "same">> = {
    idle: {
      decide: { status: "submitting", approved: true },
      succeed: "same",
      refuse: "same",
      conflict: "same",
      fail: "same",
      retry: "same",
      dismiss: "same",
      settle: settledOutside,
    },
    submitting: {
      decide: "same",
      succeed: { status: "settled", approved: false, reason: "too risky", conflict: false },
      refuse: { status: "idle" },
      conflict: { status: "settled", approved: true, conflict: true },
      fail: { status: "failed", approved: false, reason: "too risky", error: "offline" },
      retry: "same",
      dismiss: "same",
      settle: settledOutside,
    },
    failed: {
      decide: { status: "submitting", approved: true },
      succeed: "same",
      refuse: "same",
      conflict: "same",
      fail: "same",
      retry: { status: "submitting", approved: false, reason: "too risky" },
      dismiss: { status: "idle" },
      settle: settledOutside,
    },
    settled: {
      decide: "same",
      succeed: "same",
      refuse: "same",
      conflict: "same",
      fail: "same",
      retry: "same",
      dismiss: "same",
      settle: "same",
    },
  };
  for (const [from, row] of Object.entries(table)) {
    for (const [on, to] of Object.entries(row)) {
      it(`${from} + ${on} → ${to === "same" ? from : to.status}`, () => {
        const state = states[from as ApprovalState["status"]];
        const next = approvalTransition(state, events[on as ApprovalEvent["type"]]);
        if (to === "same") expect(next).toBe(state);
        else expect(next).toEqual(to);
      });
    }
  }
});
