// @vitest-environment jsdom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { toolBlock } from "./chat.fixture";
import { ChatToolCall } from "./chat-tool-call";

afterEach(cleanup);

const input = { path: "src/core/answers.ts" };

function card(): HTMLElement {
  return document.querySelector("[data-slot=chat-tool-call]") as HTMLElement;
}

describe("ChatToolCall", () => {
  it("shows a running call with its input", () => {
    render(
      <ChatToolCall block={toolBlock("m1", { id: "c1", toolName: "read_file", input, status: "running" })} />,
    );
    expect(card().getAttribute("data-state")).toBe("running");
    expect(screen.getByText("Running")).toBeTruthy();
    expect(screen.getByText(/"path": "src\/core\/answers.ts"/)).toBeTruthy();
    expect(card().hasAttribute("open")).toBe(false);
  });

  it("shows a finished call's output", () => {
    render(
      <ChatToolCall
        block={toolBlock("m1", {
          id: "c1",
          toolName: "read_file",
          input,
          status: "done",
          output: { lines: 160 },
        })}
      />,
    );
    expect(card().getAttribute("data-state")).toBe("done");
    expect(screen.getByText("Done")).toBeTruthy();
    expect(screen.getByText("Output")).toBeTruthy();
    expect(screen.getByText(/"lines": 160/)).toBeTruthy();
  });

  it("opens a failed call and shows its error", () => {
    render(
      <ChatToolCall
        block={toolBlock("m1", {
          id: "c1",
          toolName: "read_file",
          input,
          status: "error",
          errorText: "read_file: no such file src/core/answers.ts",
        })}
      />,
    );
    expect(card().getAttribute("data-state")).toBe("error");
    expect(card().hasAttribute("open")).toBe(true);
    expect(screen.getByText("Failed")).toBeTruthy();
    expect(screen.getByText("read_file: no such file src/core/answers.ts")).toBeTruthy();
    expect(screen.queryByText("Output")).toBeNull();
  });

  it("shows a rejected call with the person's reason", () => {
    render(
      <ChatToolCall
        block={toolBlock("m1", {
          id: "c1",
          toolName: "purge_cache",
          input: {},
          status: "denied",
          approval: { approved: false, reason: "not now" },
        })}
      />,
    );
    expect(screen.getByText("Rejected: not now")).toBeTruthy();
    expect(screen.queryByText("Input")).toBeNull();
  });

  it("says a call cancelled with its run was never decided, rather than rejected", () => {
    render(
      <ChatToolCall
        block={toolBlock("m1", { id: "c2", toolName: "purge_cache", input: {}, status: "denied" })}
      />,
    );
    expect(screen.getByText("Cancelled with its run before anyone decided.")).toBeTruthy();
    expect(screen.queryByText(/Rejected/)).toBeNull();
  });
});
