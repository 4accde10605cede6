"use client";

import type { Answers } from "@/lib/prepick/core/question";
import type { ElicitationDraft } from "./transcript-types";

/**
 * Where pending drafts are kept: the part of the Web Storage API the hook uses, so
 * `sessionStorage` and `localStorage` fit as they are, and a test or an app can pass its own.
 * Drafts stay in the page; the server never sees them.
 */
export interface DraftStorage {
  /** The stored text under `key`, or null. */
  getItem: (key: string) => string | null;
  /** Stores `value` under `key`. */
  setItem: (key: string, value: string) => void;
  /** Forgets `key`. */
  removeItem: (key: string) => void;
}

/** One question set's place in a {@link DraftStorage}. */
export interface DraftSlot {
  /** The saved draft, or undefined when there is none (or it cannot be read). */
  load: () => ElicitationDraft | undefined;
  /** Saves the draft; an empty one (nothing touched, on the first question) is forgotten. */
  save: (draft: ElicitationDraft) => void;
  /** Forgets the draft: the set settled or was dismissed. */
  clear: () => void;
}

/** The key a question set's draft is kept under. */
export function draftKey(id: string): string {
  return `prepick:draft:${id}`;
}

/**
 * The browser's session storage: a draft survives a reload and a crash of the tab, stays in its
 * tab, and goes when the tab closes. Undefined outside a browser, or where storage is refused
 * (a sandboxed frame, some private modes).
 */
export function sessionDraftStorage(): DraftStorage | undefined {
  try {
    return globalThis.sessionStorage ?? undefined;
  } catch {
    return undefined;
  }
}

function readAnswers(value: unknown): Answers | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const entries = Object.entries(value);
  const valid = entries.every(
    ([, values]) => Array.isArray(values) && values.every((item) => typeof item === "string"),
  );
  return valid ? (Object.fromEntries(entries) as Answers) : undefined;
}

/** Reads stored text as a draft; anything else (another version, a hand edit) reads as none. */
function parseDraft(text: string | null): ElicitationDraft | undefined {
  if (text === null) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== "object" || parsed === null) return undefined;
    const { version, values, index } = parsed as Record<string, unknown>;
    const answers = readAnswers(values);
    if (version !== 1 || !answers || typeof index !== "number" || !Number.isInteger(index)) return undefined;
    return { values: answers, index };
  } catch {
    return undefined;
  }
}

/**
 * The slot of question set `id` in `storage`. Storage that throws (full, or refused) loses the
 * draft, never the form: a draft is a convenience, the answer is what counts.
 */
export function draftSlot(storage: DraftStorage, id: string): DraftSlot {
  const key = draftKey(id);
  const attempt = (write: () => void) => {
    try {
      write();
    } catch {
      // Full or refused: the form goes on without a saved draft.
    }
  };
  return {
    load() {
      try {
        return parseDraft(storage.getItem(key));
      } catch {
        return undefined;
      }
    },
    save(draft) {
      const empty = draft.index === 0 && Object.keys(draft.values).length === 0;
      attempt(() =>
        empty
          ? storage.removeItem(key)
          : storage.setItem(key, JSON.stringify({ version: 1, values: draft.values, index: draft.index })),
      );
    },
    clear: () => attempt(() => storage.removeItem(key)),
  };
}
