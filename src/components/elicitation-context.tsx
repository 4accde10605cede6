"use client";

import * as React from "react";
import type { PrepickMessages } from "@/hooks/prepick-messages";
import type {
  AnswerState,
  ElicitationBlock,
  ElicitationQuestionState,
  SkipState,
} from "@/hooks/transcript-types";
import type { Option, Question } from "@/lib/prepick/core/question";

/** How the questions are laid out: one at a time with a progress line, or all at once. */
export type ElicitationLayout = "one-at-a-time" | "all-at-once";

/** What every part of one elicitation form shares. Keystrokes do not change it. */
export interface ElicitationContextValue {
  /** The question set. */
  block: ElicitationBlock;
  /** One question at a time, or all at once. */
  layout: ElicitationLayout;
  /** The current question, for the one-at-a-time layout. */
  index: number;
  /** The answer, a view of the set's state. */
  answer: AnswerState;
  /** The skip, a view of the set's state (`confirming` while it asks to discard changes). */
  skip: SkipState;
  /** True while an answer or a skip is on its way: the controls are disabled. */
  busy: boolean;
  /**
   * True while Next waits for the lazily loaded pattern engine to check the answer: the form says
   * so and is busy, and its controls stay in reach, as the wait is short.
   */
  checking: boolean;
  /** The id prefix of this form's elements. */
  baseId: string;
  /**
   * The form's writing direction as the page lays it out (its own `dir`, else its ancestors'), so
   * the radio groups mirror their arrow keys right to left.
   */
  dir: "ltr" | "rtl";
  /** Confirms the current question and shows the next one (one-at-a-time); the set decides if it may. */
  next: () => void;
  /** Shows the previous question (one-at-a-time). */
  previous: () => void;
  /** Submits the touched answers; the focus moves to the first invalid control if refused. */
  submit: () => Promise<void>;
  /** Skips the whole set, leaving the pre-picked answers to stand (asks first when something changed). */
  skipAll: () => Promise<void>;
  /** Keeps the changes instead of skipping. */
  cancelSkip: () => void;
  /** Sends whichever request failed again. */
  retry: () => Promise<void>;
  /**
   * The ids of the set's own lines a question is described by, once they are shown: the preamble
   * (read with the first question) and the progress (read with the question it counts).
   */
  lead: ElicitationLead;
  /** Marks one of those lines as shown, from its part's effect; returns the undo. */
  showLead: (part: keyof ElicitationLead) => () => void;
}

/** The ids of the preamble and the progress line while they are shown. */
export interface ElicitationLead {
  /** The preamble's id. */
  preamble?: string;
  /** The progress line's text's id. */
  progress?: string;
}

/** What the parts of one question share. */
export interface ElicitationQuestionContextValue {
  /** The question's state from the block's store (value, error, setValue…). */
  state: ElicitationQuestionState;
  /** The question with a hotkey on every option. */
  question: Question;
  /** What it shows as radios or checkboxes (Yes/No for a boolean), from `elicitationChoices`. */
  choices: readonly Option[];
  /** The set's messages: every word its parts show. */
  messages: PrepickMessages;
  /** The error to show now, if any. */
  error: string | undefined;
  /** Whether its controls are disabled. */
  disabled: boolean;
  /** Element ids inside the question, for label and description wiring. */
  ids: { legend: string; description: string; error: string; control: string; count: string };
  /** The ids of what describes the question now (the set's preamble and progress, its help, the character count, the error), for `aria-describedby`. */
  describedBy: string | undefined;
}

const ElicitationContext = React.createContext<ElicitationContextValue | null>(null);
const ElicitationQuestionContext = React.createContext<ElicitationQuestionContextValue | null>(null);

/** Provides the form's shared state to its parts. */
const ElicitationProvider = ElicitationContext.Provider;

/** Provides one question's state to its parts. */
const ElicitationQuestionProvider = ElicitationQuestionContext.Provider;

/** The form's shared state; throws when `consumer` is rendered outside `ElicitationRoot`. */
function useElicitationContext(consumer: string): ElicitationContextValue {
  const context = React.useContext(ElicitationContext);
  if (!context) throw new Error(`\`${consumer}\` must be used within \`ElicitationRoot\``);
  return context;
}

/** One question's state; throws when `consumer` is rendered outside `ElicitationQuestion`. */
function useElicitationQuestionContext(consumer: string): ElicitationQuestionContextValue {
  const context = React.useContext(ElicitationQuestionContext);
  if (!context) throw new Error(`\`${consumer}\` must be used within \`ElicitationQuestion\``);
  return context;
}

export {
  ElicitationProvider,
  ElicitationQuestionProvider,
  useElicitationContext,
  useElicitationQuestionContext,
};
