import { describe, expect, it, vi } from "vitest";
import type { Question } from "@/lib/prepick/core/question";
import { ToolCallError } from "@/lib/prepick/transport/tool-call-error";
import { createApprovalBlock, type SendDecision } from "./approval-store";

const questions: Question[] = [
  {
    id: "cache",
    prompt: "Which cache?",
    options: [
      { value: "pages", label: "Pages" },
      { value: "images", label: "Images" },
    ],
    defaults: ["pages"],
  },
  {
    id: "hours",
    prompt: "How far back?",
    input: { type: "number", min: 1, max: 72, step: 1 },
    defaults: ["24"],
  },
];
const proposed = { cache: "pages", hours: 24 };

function editable(send: SendDecision) {
  return createApprovalBlock(
    { id: "c1", messageId: "m1", toolName: "purge_cache", input: proposed, questions },
    send,
  );
}

describe("an editable approval block", () => {
  it("has a form pre-picked with the proposal, whose marks say proposed", () => {
    const block = editable(vi.fn());
    expect(block.form?.questions.map((field) => [field.id, field.value, field.touched])).toEqual([
      ["cache", ["pages"], false],
      ["hours", ["24"], false],
    ]);
    expect(block.form?.messages.form.prePicked).toBe("proposed");
    expect(block.form?.messages.form.prePickedOption("Pages")).toBe("Pages (proposed)");
  });

  it("approves as proposed with no answers, and with the fields the person changed", async () => {
    const send = vi.fn<SendDecision>(async (_approved, _reason, answers) =>
      answers?.hours
        ? { input: { ...proposed, hours: 6 }, edited: ["hours"] }
        : { input: proposed, edited: [] },
    );
    const untouched = editable(send);
    await untouched.approve();
    expect(send).toHaveBeenLastCalledWith(true, undefined, {});
    expect(untouched.getEdits()).toEqual({ input: proposed, edited: [] });
    expect(untouched.form?.getSnapshot().phase).toBe("settled");

    const changed = editable(send);
    changed.form?.setValue("hours", "06");
    await changed.approve();
    expect(send).toHaveBeenLastCalledWith(true, undefined, { hours: ["6"] });
    expect(changed.getSnapshot()).toEqual({ status: "settled", approved: true, conflict: false });
    expect(changed.getEdits()).toEqual({ input: { cache: "pages", hours: 6 }, edited: ["hours"] });
    expect(changed.form?.questions[1]?.value).toEqual(["6"]);
  });

  it("refuses an invalid field in the page without sending, the error on the field", async () => {
    const send = vi.fn<SendDecision>();
    const block = editable(send);
    block.form?.setValue("hours", "0");
    await block.approve();
    expect(send).not.toHaveBeenCalled();
    expect(block.getSnapshot().status).toBe("idle");
    expect(block.form?.questions[1]?.error).toBeTruthy();
  });

  it("fails a decision that never got through, and retries it with the same fields", async () => {
    let offline = true;
    const send = vi.fn<SendDecision>(async () => {
      if (offline) throw new Error("offline");
      return { input: { ...proposed, cache: "images" }, edited: ["cache"] };
    });
    const block = editable(send);
    block.form?.setValue("cache", "images");
    await block.approve();
    expect(block.getSnapshot()).toMatchObject({ status: "failed", approved: true });
    offline = false;
    await block.retry();
    expect(send).toHaveBeenCalledTimes(2);
    expect(send).toHaveBeenLastCalledWith(true, undefined, { cache: ["images"] });
    expect(block.getSnapshot()).toMatchObject({ status: "settled", approved: true });
  });

  it("settles as decided elsewhere on a conflict, and a rejection puts the form away", async () => {
    const conflicting = editable(async () => {
      throw new ToolCallError({
        kind: "conflict",
        status: 409,
        error: "c1 was already settled as rejected",
        toolCallId: "c1",
        toolStatus: "rejected",
        output: { reason: "no" },
      });
    });
    await conflicting.approve();
    expect(conflicting.getSnapshot()).toEqual({ status: "settled", approved: false, conflict: true });

    const rejected = editable(async () => ({ reason: "not now" }));
    await rejected.reject("not now");
    expect(rejected.getSnapshot()).toMatchObject({ status: "settled", approved: false, reason: "not now" });
    expect(rejected.form?.getSnapshot().phase).toBe("dismissed");
    expect(rejected.getEdits()).toBeUndefined();
  });

  it("settles from outside with the edits the stream carried", () => {
    const block = editable(vi.fn());
    block.setEdits({ input: { cache: "images", hours: 24 }, edited: ["cache"] });
    block.settle({ approved: true });
    expect(block.getSnapshot()).toMatchObject({ status: "settled", approved: true });
    expect(block.form?.getSnapshot().settled?.outcome.answers.cache).toEqual(["images"]);
  });
});
