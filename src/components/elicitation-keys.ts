import { SKIP_HOTKEY } from "@/lib/prepick/core/question";

/** The kind of element a key was pressed on, which decides what the key may mean. */
export type ElicitationKeyTarget =
  /** A one-line field (text, number, email, url, date): letters are typing, Enter confirms. */
  | "field"
  /** A textarea: letters are typing, Enter is a new line, Ctrl/⌘+Enter confirms. */
  | "multiline"
  /** A native select: letters jump to an option, Enter confirms. */
  | "select"
  /** A radio option: the radio group moves between options on its own. */
  | "radio"
  /** A checkbox option: arrows move between the options. */
  | "checkbox"
  /** A button: Enter and Space press it. */
  | "button"
  /**
   * The question's own group, which takes the focus as the question is shown: arrows move to an
   * option (from the picked one), letters pick, Enter confirms.
   */
  | "question"
  /** Anything else inside the form (the form itself, a legend, a fieldset). */
  | "other";

/** The parts of a keyboard event the mapping reads; a React or DOM `KeyboardEvent` fits. */
export interface ElicitationKeyEvent {
  /** `KeyboardEvent.key`. */
  key: string;
  /** True while the key is held down and repeating. */
  repeat?: boolean;
  /** True while an input method editor composes text. */
  isComposing?: boolean;
  /** The legacy key code: 229 while an input method editor composes. */
  keyCode?: number;
  /** The Alt/Option key is down. */
  altKey?: boolean;
  /** The Control key is down. */
  ctrlKey?: boolean;
  /** The ⌘/Windows key is down. */
  metaKey?: boolean;
  /** The Shift key is down. */
  shiftKey?: boolean;
}

/** What the form knows when a key is pressed. */
export interface ElicitationKeyContext {
  /** The kind of element the key was pressed on. */
  target: ElicitationKeyTarget;
  /** The hotkeys of the question the key belongs to (the focused one, else the current one). */
  hotkeys: readonly string[];
  /** `one-at-a-time` moves through the questions; `all-at-once` submits on Enter. */
  layout: "one-at-a-time" | "all-at-once";
  /** Whether the question the key belongs to is the last of the set. */
  isLastQuestion: boolean;
  /** False while submitting or settled: then no key means anything. */
  enabled?: boolean;
  /**
   * The form's writing direction. Right to left, ArrowLeft goes on to the next option and
   * ArrowRight back, as in a native radio group and the WAI-ARIA practices; `ltr` by default.
   */
  direction?: "ltr" | "rtl";
}

/** What a key press means to the form. */
export type ElicitationKeyAction =
  /** Nothing: let the browser and the focused control handle the key. */
  | { type: "none" }
  /** Pick (or, on a multiple-choice question, toggle) the option with this hotkey. */
  | { type: "pick"; hotkey: string }
  /** Confirm the current question and show the next one. */
  | { type: "next" }
  /** Confirm and submit the whole set. */
  | { type: "submit" }
  /** Skip the whole set, leaving the pre-picked answers to stand. */
  | { type: "skip" }
  /** Move the focus to another option of the same question. */
  | { type: "move"; to: "previous" | "next" | "first" | "last" };

const NONE: ElicitationKeyAction = { type: "none" };
const TYPING_TARGETS: ReadonlySet<ElicitationKeyTarget> = new Set(["field", "multiline", "select"]);
type Move = "previous" | "next" | "first" | "last";
const MOVES: Record<string, Move> = {
  ArrowUp: "previous",
  ArrowLeft: "previous",
  ArrowDown: "next",
  ArrowRight: "next",
  Home: "first",
  End: "last",
};
/** Right to left, the horizontal arrows swap: the next option is the one to the left. */
const RTL_MOVES: Record<string, Move> = { ...MOVES, ArrowLeft: "next", ArrowRight: "previous" };

function isComposing(event: ElicitationKeyEvent): boolean {
  // Safari ends composition before its last keydown, which still reports key code 229.
  return event.isComposing === true || event.keyCode === 229;
}

function confirm(event: ElicitationKeyEvent, context: ElicitationKeyContext): ElicitationKeyAction {
  if (context.target === "button") return NONE;
  if (event.altKey || event.shiftKey) return NONE;
  const withModifier = event.ctrlKey === true || event.metaKey === true;
  // In a textarea Enter writes a new line; Ctrl/⌘+Enter is the way out.
  if (context.target === "multiline" ? !withModifier : withModifier) return NONE;
  return context.layout === "one-at-a-time" && !context.isLastQuestion
    ? { type: "next" }
    : { type: "submit" };
}

/**
 * Maps a key press inside an elicitation form to what it means: a hotkey picks an option, Enter
 * confirms (the next question, or the submit on the last), `s` skips the set, arrows move between
 * checkbox options and from a question's group to its options (the horizontal ones mirrored right
 * to left). Keys mean nothing during IME composition, on key repeat, with Ctrl/⌘/Alt held
 * (browser shortcuts stay the browser's), and, for letters, while the person types in a field.
 */
export function resolveElicitationKey(
  event: ElicitationKeyEvent,
  context: ElicitationKeyContext,
): ElicitationKeyAction {
  if (context.enabled === false || isComposing(event) || event.repeat) return NONE;
  if (event.key === "Enter") return confirm(event, context);
  if (event.altKey || event.ctrlKey || event.metaKey) return NONE;
  const move = (context.direction === "rtl" ? RTL_MOVES : MOVES)[event.key];
  if (move !== undefined) {
    return context.target === "checkbox" || context.target === "question" ? { type: "move", to: move } : NONE;
  }
  if (TYPING_TARGETS.has(context.target) || [...event.key].length !== 1) return NONE;
  const key = event.key.toLowerCase();
  if (key === SKIP_HOTKEY) return { type: "skip" };
  return context.hotkeys.includes(key) ? { type: "pick", hotkey: key } : NONE;
}

const FIELD_INPUT_TYPES: ReadonlySet<string> = new Set(["checkbox", "radio", "button", "submit", "reset"]);

/** Classifies the element a key was pressed on, for {@link resolveElicitationKey}. */
export function elicitationKeyTarget(element: EventTarget | null): ElicitationKeyTarget {
  if (!(element instanceof Element)) return "other";
  if (element instanceof HTMLTextAreaElement) return "multiline";
  if (element instanceof HTMLSelectElement) return "select";
  if (element instanceof HTMLInputElement) {
    if (element.type === "radio") return "radio";
    if (element.type === "checkbox") return "checkbox";
    return FIELD_INPUT_TYPES.has(element.type) ? "button" : "field";
  }
  if (element instanceof HTMLElement && element.isContentEditable) return "multiline";
  const role = element.getAttribute("role");
  if (role === "radio") return "radio";
  if (role === "checkbox") return "checkbox";
  if (element instanceof HTMLButtonElement || role === "button") return "button";
  return "other";
}
