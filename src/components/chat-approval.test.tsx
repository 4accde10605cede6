// @vitest-environment jsdom
import { act, cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { SendDecision } from "@/hooks/approval-store";
import { ToolCallError } from "@/lib/prepick/transport";
import { approvalBlock, editablePurge } from "./chat.fixture";
import { ChatApproval } from "./chat-approval";

afterEach(cleanup);

function stateOf(): string | null {
  return screen.getByRole("region").getAttribute("data-state");
}

describe("ChatApproval", () => {
  it("shows the tool and its input, then approves by keyboard", async () => {
    const send = vi.fn<SendDecision>(async () => {});
    render(
      <ChatApproval
        block={approvalBlock("m1", { toolName: "purge_cache", input: { region: "eu" }, send })}
      />,
    );
    expect(screen.getByRole("region", { name: /Allow purge_cache to run\?/ })).toBeTruthy();
    expect(screen.getByText(/"region": "eu"/)).toBeTruthy();
    expect(stateOf()).toBe("pending");
    // Approve comes first from the card; the reason, which only a rejection reads, after the buttons.
    screen.getByRole("region").focus();
    await userEvent.tab();
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Approve" }));
    await userEvent.tab();
    await userEvent.tab();
    expect(document.activeElement).toBe(screen.getByRole("textbox", { name: /Reason/ }));
    await userEvent.tab({ shift: true });
    await userEvent.tab({ shift: true });
    await userEvent.keyboard("{Enter}");
    expect(send).toHaveBeenCalledWith(true, undefined);
    expect(await screen.findByText("You approved this call.")).toBeTruthy();
    expect(stateOf()).toBe("approved");
    // The buttons are gone: the card has the focus, named and described by the decision.
    const decided = screen.getByRole("region", { name: /purge_cache approved/ });
    expect(document.activeElement).toBe(decided);
    const describedBy = decided.getAttribute("aria-describedby") ?? "";
    expect(document.getElementById(describedBy)?.textContent).toBe("You approved this call.");
  });

  it("rejects with the typed reason, or with none when the field is blank", async () => {
    const send = vi.fn<SendDecision>(async () => {});
    render(<ChatApproval block={approvalBlock("m1", { send })} />);
    await userEvent.type(screen.getByRole("textbox", { name: /Reason/ }), "  not now  ");
    await userEvent.click(screen.getByRole("button", { name: "Reject" }));
    expect(send).toHaveBeenCalledWith(false, "not now");
    expect(await screen.findByText(/Reason: not now/)).toBeTruthy();
    expect(stateOf()).toBe("rejected");

    cleanup();
    const quiet = vi.fn<SendDecision>(async () => {});
    render(<ChatApproval block={approvalBlock("m2", { send: quiet })} />);
    await userEvent.click(screen.getByRole("button", { name: "Reject" }));
    expect(quiet).toHaveBeenCalledWith(false, undefined);
  });

  it("does not decide on Enter in an empty reason field; Enter with a reason rejects with it", async () => {
    const send = vi.fn<SendDecision>(async () => {});
    render(<ChatApproval block={approvalBlock("m1", { send })} />);
    const reason = screen.getByRole("textbox", { name: /Reason/ });
    await userEvent.type(reason, "   {Enter}");
    expect(send).not.toHaveBeenCalled();
    expect(stateOf()).toBe("pending");
    await userEvent.type(reason, "not now{Enter}");
    expect(send).toHaveBeenCalledWith(false, "not now");
  });

  it("disables both buttons while the decision is on its way", async () => {
    let finish: () => void = () => {};
    const send = vi.fn<SendDecision>(() => new Promise<void>((resolve) => (finish = resolve)));
    render(<ChatApproval block={approvalBlock("m1", { send })} />);
    await userEvent.click(screen.getByRole("button", { name: "Approve" }));
    expect(stateOf()).toBe("submitting");
    expect(screen.getByRole("button", { name: "Approving…" })).toHaveProperty("disabled", true);
    expect(screen.getByRole("button", { name: "Reject" })).toHaveProperty("disabled", true);
    await act(async () => finish());
    expect(stateOf()).toBe("approved");
  });

  it("shows a failure and retries the same decision", async () => {
    const send = vi
      .fn<SendDecision>()
      .mockRejectedValueOnce(
        new ToolCallError({ kind: "network", error: "The server could not be reached." }),
      )
      .mockResolvedValueOnce(undefined);
    render(<ChatApproval block={approvalBlock("m1", { send })} />);
    await userEvent.click(screen.getByRole("button", { name: "Reject" }));
    expect((await screen.findByRole("alert")).textContent).toBe(
      "Your decision was not sent. Check your connection, then retry.",
    );
    expect(stateOf()).toBe("failed");
    await userEvent.click(screen.getByRole("button", { name: "Retry" }));
    expect(send).toHaveBeenCalledTimes(2);
    expect(send.mock.calls[1]).toEqual([false, undefined]);
    expect(stateOf()).toBe("rejected");
  });

  it("says so when another tab decided first", async () => {
    const send = vi.fn<SendDecision>().mockRejectedValueOnce(
      new ToolCallError({
        kind: "conflict",
        status: 409,
        error: "already settled",
        toolCallId: "m1:approval",
        toolStatus: "approved",
        output: null,
      }),
    );
    render(<ChatApproval block={approvalBlock("m1", { send })} />);
    await userEvent.click(screen.getByRole("button", { name: "Approve" }));
    expect(await screen.findByText(/already been decided elsewhere/)).toBeTruthy();
  });

  it("shows an editable call's fields pre-picked with the proposal, marked proposed, and approves as proposed by Enter", async () => {
    const send = vi.fn<SendDecision>(async () => ({ input: { cache: "images", hours: 24 }, edited: [] }));
    render(<ChatApproval block={editablePurge("m1", { send })} />);
    const form = screen.getByRole("form", { name: /Allow purge_cache to run\?/ });
    expect(screen.getByRole("radio", { name: /Images/ }).getAttribute("aria-checked")).toBe("true");
    expect(screen.getByRole("spinbutton", { name: /How far back/ })).toHaveProperty("value", "24");
    expect(form.textContent).toContain("proposed");
    // Every field is asked, so the input is not shown again as JSON.
    expect(screen.queryByText(/"hours": 24/)).toBeNull();
    screen.getByRole("spinbutton", { name: /How far back/ }).focus();
    await userEvent.keyboard("{Enter}");
    expect(send).toHaveBeenCalledWith(true, undefined, {});
    expect(await screen.findByText("You approved this call.")).toBeTruthy();
  });

  it("approves with the field the person changed, and the settled card shows what ran beside what was proposed", async () => {
    const send = vi.fn<SendDecision>(async () => ({
      input: { cache: "images", hours: 6 },
      edited: ["hours"],
    }));
    render(<ChatApproval block={editablePurge("m1", { send })} />);
    const hours = screen.getByRole("spinbutton", { name: /How far back/ });
    await userEvent.clear(hours);
    await userEvent.type(hours, "6");
    await userEvent.click(screen.getByRole("button", { name: "Approve" }));
    expect(send).toHaveBeenCalledWith(true, undefined, { hours: ["6"] });
    expect(await screen.findByText("You approved this call with your changes.")).toBeTruthy();
    const changes = screen.getAllByRole("definition").map((item) => item.textContent);
    expect(changes).toEqual(["Imagesproposed", "6proposed: 24"]);
    expect(stateOf()).toBe("approved");
  });

  it("keeps an invalid field from being sent, and shows the server's refusal on its field", async () => {
    const send = vi.fn<SendDecision>(async () => {
      throw new ToolCallError({
        kind: "invalid",
        status: 400,
        error: "The edits were refused",
        issues: [{ questionId: "hours", rule: "schema", value: "7", message: 'answers["hours"] is refused' }],
      });
    });
    render(<ChatApproval block={editablePurge("m1", { send })} />);
    const hours = screen.getByRole("spinbutton", { name: /How far back/ });
    await userEvent.clear(hours);
    await userEvent.type(hours, "500");
    await userEvent.click(screen.getByRole("button", { name: "Approve" }));
    expect(send).not.toHaveBeenCalled();
    expect(hours.getAttribute("aria-invalid")).toBe("true");
    await userEvent.clear(hours);
    await userEvent.type(hours, "7");
    await userEvent.click(screen.getByRole("button", { name: "Approve" }));
    expect(send).toHaveBeenCalledWith(true, undefined, { hours: ["7"] });
    expect(stateOf()).toBe("pending");
    expect(hours.getAttribute("aria-invalid")).toBe("true");
  });
});
