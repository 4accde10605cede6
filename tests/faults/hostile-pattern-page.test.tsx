// @vitest-environment jsdom
import { act, cleanup, renderHook } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { useElicitation } from "@/hooks/use-elicitation";
import type { ElicitationRequest } from "@/lib/prepick/core";
import { HOSTILE_PATTERN, HOSTILE_VALUE, MATCHING_VALUE } from "./support/hostile-pattern";

const request: ElicitationRequest = {
  source: "ask",
  questions: [
    { id: "code", prompt: "Which code?", input: { type: "text", pattern: HOSTILE_PATTERN, required: true } },
  ],
};

afterEach(() => cleanup());

describe("a model-authored pattern built for catastrophic backtracking, in the page", () => {
  it("is checked against a long value by the hook's validation, which returns", () => {
    const { result } = renderHook(() => useElicitation({ id: "call-hostile", request }));
    act(() => result.current.block.setValue("code", HOSTILE_VALUE));
    const refused = result.current.snapshot.questions[0];
    expect(refused?.value).toEqual([HOSTILE_VALUE]);
    expect(refused?.issues[0]).toMatchObject({ rule: "pattern" });
    expect(refused?.issues[0]?.message).toContain(HOSTILE_PATTERN);
    // The person is not shown the regular expression.
    expect(refused?.error).toBe("Enter it in the form the question asks for.");
    expect(result.current.snapshot.isValid).toBe(false);

    act(() => result.current.block.setValue("code", MATCHING_VALUE));
    expect(result.current.snapshot.questions[0]?.error).toBeUndefined();
    expect(result.current.snapshot.isValid).toBe(true);
  });
});
