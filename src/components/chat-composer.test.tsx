// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ChatComposer } from "./chat-composer";

afterEach(cleanup);

describe("ChatComposer", () => {
  it("sends the trimmed text on Enter and empties the box", async () => {
    const onSend = vi.fn();
    render(<ChatComposer onSend={onSend} />);
    const box = screen.getByRole("textbox", { name: "Message" });
    await userEvent.type(box, "  Refactor this file  {Enter}");
    expect(onSend).toHaveBeenCalledOnce();
    expect(onSend).toHaveBeenCalledWith("Refactor this file");
    expect(box).toHaveProperty("value", "");
  });

  it("does not send on the Enter that commits an IME composition (isComposing, or Safari's keyCode 229)", async () => {
    const onSend = vi.fn();
    render(<ChatComposer onSend={onSend} />);
    const box = screen.getByRole("textbox", { name: "Message" });
    await userEvent.type(box, "日本語");
    expect(fireEvent.keyDown(box, { key: "Enter", keyCode: 229 })).toBe(true);
    expect(fireEvent.keyDown(box, { key: "Enter", keyCode: 13, isComposing: true })).toBe(true);
    expect(onSend).not.toHaveBeenCalled();
    expect(box).toHaveProperty("value", "日本語");
    fireEvent.keyDown(box, { key: "Enter", keyCode: 13 });
    expect(onSend).toHaveBeenCalledWith("日本語");
  });

  it("keeps the caller's text when controlled, and empties it through onValueChange on send", async () => {
    const onSend = vi.fn();
    const onValueChange = vi.fn();
    render(<ChatComposer onSend={onSend} value="kept text" onValueChange={onValueChange} />);
    const box = screen.getByRole("textbox", { name: "Message" });
    expect(box).toHaveProperty("value", "kept text");
    fireEvent.keyDown(box, { key: "Enter" });
    expect(onSend).toHaveBeenCalledWith("kept text");
    expect(onValueChange).toHaveBeenLastCalledWith("");
  });

  it("speaks the messages it is given", () => {
    render(<ChatComposer onSend={vi.fn()} messages={{ composer: { label: "Nachricht", send: "Senden" } }} />);
    expect(screen.getByRole("textbox", { name: "Nachricht" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Senden" })).toBeTruthy();
  });

  it("starts a new line on Shift+Enter without sending", async () => {
    const onSend = vi.fn();
    render(<ChatComposer onSend={onSend} />);
    const box = screen.getByRole("textbox", { name: "Message" });
    await userEvent.type(box, "one{Shift>}{Enter}{/Shift}two");
    expect(onSend).not.toHaveBeenCalled();
    expect(box).toHaveProperty("value", "one\ntwo");
  });

  it("sends with the Send button, which stays off while the box is blank", async () => {
    const onSend = vi.fn();
    render(<ChatComposer onSend={onSend} />);
    const send = screen.getByRole("button", { name: "Send" });
    expect(send).toHaveProperty("disabled", true);
    await userEvent.type(screen.getByRole("textbox"), "   ");
    expect(send).toHaveProperty("disabled", true);
    await userEvent.type(screen.getByRole("textbox"), "go");
    await userEvent.click(send);
    expect(onSend).toHaveBeenCalledWith("go");
  });

  it("does not send while a reply streams, and offers Stop", async () => {
    const onSend = vi.fn();
    const onStop = vi.fn();
    render(<ChatComposer onSend={onSend} onStop={onStop} streaming />);
    const box = screen.getByRole("textbox", { name: "Message" });
    await userEvent.type(box, "next{Enter}");
    expect(onSend).not.toHaveBeenCalled();
    expect(box).toHaveProperty("value", "next");
    expect(screen.queryByRole("button", { name: "Send" })).toBeNull();
    await userEvent.click(screen.getByRole("button", { name: "Stop" }));
    expect(onStop).toHaveBeenCalledOnce();
    expect(box.closest("form")?.getAttribute("data-state")).toBe("streaming");
  });

  it("turns the box off when disabled", () => {
    render(<ChatComposer onSend={vi.fn()} disabled />);
    expect(screen.getByRole("textbox")).toHaveProperty("disabled", true);
    expect(screen.getByRole("textbox").closest("form")?.getAttribute("data-state")).toBe("disabled");
  });
});
