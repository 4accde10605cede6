// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import {
  type ElicitationKeyContext,
  type ElicitationKeyTarget,
  elicitationKeyTarget,
  resolveElicitationKey,
} from "./elicitation-keys";

const choice: ElicitationKeyContext = {
  target: "radio",
  hotkeys: ["a", "b", "c"],
  layout: "one-at-a-time",
  isLastQuestion: false,
};

function on(target: ElicitationKeyTarget, more: Partial<ElicitationKeyContext> = {}): ElicitationKeyContext {
  return { ...choice, target, ...more };
}

describe("resolveElicitationKey", () => {
  it("picks the option whose hotkey was pressed, in either case", () => {
    expect(resolveElicitationKey({ key: "b" }, choice)).toEqual({ type: "pick", hotkey: "b" });
    expect(resolveElicitationKey({ key: "C", shiftKey: true }, choice)).toEqual({
      type: "pick",
      hotkey: "c",
    });
  });

  it("ignores a letter that is no option's hotkey", () => {
    expect(resolveElicitationKey({ key: "z" }, choice)).toEqual({ type: "none" });
  });

  it("moves from a question's own group to its options with the arrows, mirrored right to left", () => {
    expect(resolveElicitationKey({ key: "ArrowDown" }, on("question"))).toEqual({ type: "move", to: "next" });
    expect(resolveElicitationKey({ key: "Home" }, on("question"))).toEqual({ type: "move", to: "first" });
    expect(resolveElicitationKey({ key: "ArrowLeft" }, on("question", { direction: "rtl" }))).toEqual({
      type: "move",
      to: "next",
    });
    expect(resolveElicitationKey({ key: "a" }, on("question"))).toEqual({ type: "pick", hotkey: "a" });
    expect(resolveElicitationKey({ key: "Enter" }, on("question"))).toEqual({ type: "next" });
  });

  it("skips the whole set on s", () => {
    expect(resolveElicitationKey({ key: "s" }, choice)).toEqual({ type: "skip" });
    expect(resolveElicitationKey({ key: "s" }, on("other", { hotkeys: [] }))).toEqual({ type: "skip" });
  });

  it("moves to the next question on Enter, and submits on the last one", () => {
    expect(resolveElicitationKey({ key: "Enter" }, choice)).toEqual({ type: "next" });
    expect(resolveElicitationKey({ key: "Enter" }, { ...choice, isLastQuestion: true })).toEqual({
      type: "submit",
    });
  });

  it("submits on Enter when every question shows at once", () => {
    expect(resolveElicitationKey({ key: "Enter" }, { ...choice, layout: "all-at-once" })).toEqual({
      type: "submit",
    });
  });

  it("pauses hotkeys and skip while the person types in a field", () => {
    for (const target of ["field", "multiline", "select"] as const) {
      expect(resolveElicitationKey({ key: "a" }, on(target))).toEqual({ type: "none" });
      expect(resolveElicitationKey({ key: "s" }, on(target))).toEqual({ type: "none" });
    }
  });

  it("confirms with Enter from a one-line field or a select", () => {
    expect(resolveElicitationKey({ key: "Enter" }, on("field"))).toEqual({ type: "next" });
    expect(resolveElicitationKey({ key: "Enter" }, on("select"))).toEqual({ type: "next" });
  });

  it("keeps Enter for new lines in a textarea and confirms on Ctrl/⌘+Enter", () => {
    expect(resolveElicitationKey({ key: "Enter" }, on("multiline"))).toEqual({ type: "none" });
    expect(resolveElicitationKey({ key: "Enter", ctrlKey: true }, on("multiline"))).toEqual({ type: "next" });
    expect(resolveElicitationKey({ key: "Enter", metaKey: true }, on("multiline"))).toEqual({ type: "next" });
  });

  it("leaves Enter to a focused button, and modified Enter to the browser", () => {
    expect(resolveElicitationKey({ key: "Enter" }, on("button"))).toEqual({ type: "none" });
    expect(resolveElicitationKey({ key: "Enter", shiftKey: true }, choice)).toEqual({ type: "none" });
    expect(resolveElicitationKey({ key: "Enter", ctrlKey: true }, on("field"))).toEqual({ type: "none" });
  });

  it("lets hotkeys work while a button has the focus", () => {
    expect(resolveElicitationKey({ key: "a" }, on("button"))).toEqual({ type: "pick", hotkey: "a" });
  });

  it("ignores Enter and hotkeys while an input method composes", () => {
    expect(resolveElicitationKey({ key: "Enter", isComposing: true }, choice)).toEqual({ type: "none" });
    expect(resolveElicitationKey({ key: "Enter", keyCode: 229 }, on("field"))).toEqual({ type: "none" });
    expect(resolveElicitationKey({ key: "a", keyCode: 229 }, choice)).toEqual({ type: "none" });
  });

  it("ignores a held key's repeats", () => {
    expect(resolveElicitationKey({ key: "Enter", repeat: true }, choice)).toEqual({ type: "none" });
    expect(resolveElicitationKey({ key: "a", repeat: true }, choice)).toEqual({ type: "none" });
    expect(resolveElicitationKey({ key: "s", repeat: true }, choice)).toEqual({ type: "none" });
  });

  it("leaves browser shortcuts alone", () => {
    expect(resolveElicitationKey({ key: "a", ctrlKey: true }, choice)).toEqual({ type: "none" });
    expect(resolveElicitationKey({ key: "s", metaKey: true }, choice)).toEqual({ type: "none" });
    expect(resolveElicitationKey({ key: "b", altKey: true }, choice)).toEqual({ type: "none" });
  });

  it("moves between checkbox options with the arrows, Home and End", () => {
    const checkbox = on("checkbox");
    expect(resolveElicitationKey({ key: "ArrowDown" }, checkbox)).toEqual({ type: "move", to: "next" });
    expect(resolveElicitationKey({ key: "ArrowRight" }, checkbox)).toEqual({ type: "move", to: "next" });
    expect(resolveElicitationKey({ key: "ArrowUp" }, checkbox)).toEqual({ type: "move", to: "previous" });
    expect(resolveElicitationKey({ key: "ArrowLeft" }, checkbox)).toEqual({ type: "move", to: "previous" });
    expect(resolveElicitationKey({ key: "Home" }, checkbox)).toEqual({ type: "move", to: "first" });
    expect(resolveElicitationKey({ key: "End" }, checkbox)).toEqual({ type: "move", to: "last" });
  });

  it("mirrors the horizontal arrows right to left: ArrowLeft goes on, ArrowRight goes back", () => {
    const checkbox = on("checkbox", { direction: "rtl" });
    expect(resolveElicitationKey({ key: "ArrowLeft" }, checkbox)).toEqual({ type: "move", to: "next" });
    expect(resolveElicitationKey({ key: "ArrowRight" }, checkbox)).toEqual({ type: "move", to: "previous" });
    expect(resolveElicitationKey({ key: "ArrowDown" }, checkbox)).toEqual({ type: "move", to: "next" });
    expect(resolveElicitationKey({ key: "ArrowUp" }, checkbox)).toEqual({ type: "move", to: "previous" });
    expect(resolveElicitationKey({ key: "Home" }, checkbox)).toEqual({ type: "move", to: "first" });
    expect(resolveElicitationKey({ key: "End" }, checkbox)).toEqual({ type: "move", to: "last" });
    const ltr = on("checkbox", { direction: "ltr" });
    expect(resolveElicitationKey({ key: "ArrowLeft" }, ltr)).toEqual({ type: "move", to: "previous" });
  });

  it("leaves arrows to the radio group and to text fields", () => {
    expect(resolveElicitationKey({ key: "ArrowDown" }, choice)).toEqual({ type: "none" });
    expect(resolveElicitationKey({ key: "ArrowLeft" }, on("field"))).toEqual({ type: "none" });
  });

  it("ignores named keys such as Tab, Escape and Space", () => {
    for (const key of ["Tab", "Escape", " ", "Backspace", "F5"]) {
      expect(resolveElicitationKey({ key }, on("other"))).toEqual({ type: "none" });
    }
  });

  it("means nothing while the form is disabled", () => {
    const disabled = { ...choice, enabled: false };
    expect(resolveElicitationKey({ key: "a" }, disabled)).toEqual({ type: "none" });
    expect(resolveElicitationKey({ key: "Enter" }, disabled)).toEqual({ type: "none" });
    expect(resolveElicitationKey({ key: "s" }, disabled)).toEqual({ type: "none" });
  });
});

describe("elicitationKeyTarget", () => {
  function element(html: string): Element {
    const host = document.createElement("div");
    host.innerHTML = html;
    const first = host.firstElementChild;
    if (!first) throw new Error(`no element in ${html}`);
    return first;
  }

  it("classifies each kind of control", () => {
    expect(elicitationKeyTarget(element(`<input type="text">`))).toBe("field");
    expect(elicitationKeyTarget(element(`<input type="number">`))).toBe("field");
    expect(elicitationKeyTarget(element(`<input type="date">`))).toBe("field");
    expect(elicitationKeyTarget(element(`<textarea></textarea>`))).toBe("multiline");
    expect(elicitationKeyTarget(element(`<select></select>`))).toBe("select");
    expect(elicitationKeyTarget(element(`<input type="checkbox">`))).toBe("checkbox");
    expect(elicitationKeyTarget(element(`<input type="radio">`))).toBe("radio");
    expect(elicitationKeyTarget(element(`<button role="radio"></button>`))).toBe("radio");
    expect(elicitationKeyTarget(element(`<button role="checkbox"></button>`))).toBe("checkbox");
    expect(elicitationKeyTarget(element(`<button type="submit"></button>`))).toBe("button");
    expect(elicitationKeyTarget(element(`<fieldset></fieldset>`))).toBe("other");
    expect(elicitationKeyTarget(null)).toBe("other");
  });
});
