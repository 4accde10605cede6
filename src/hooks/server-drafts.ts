import type { ToolCallClient } from "@/lib/prepick/transport/tool-call-client";
import { type DraftStorage, draftKey } from "./draft-storage";

/** How long typing rests before a draft goes to the server. */
const SAVE_AFTER_MS = 400;

const PREFIX = draftKey("");

/**
 * Drafts kept in `local` (the tab's session storage) and also, a moment after the person stops
 * typing, on the server for their other devices (`client.saveDraft`), so the call's deep link on
 * a phone resumes where the desktop left off. Saving is best effort: a draft that does not reach
 * the server stays in the tab, and the server never treats a draft as an answer.
 */
export function serverDraftStorage(
  client: Pick<ToolCallClient, "saveDraft">,
  local: DraftStorage | undefined,
): DraftStorage {
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  const later = (key: string, send: () => void) => {
    clearTimeout(timers.get(key));
    timers.set(
      key,
      setTimeout(() => {
        timers.delete(key);
        send();
      }, SAVE_AFTER_MS),
    );
  };
  return {
    getItem: (key) => local?.getItem(key) ?? null,
    setItem(key, value) {
      local?.setItem(key, value);
      if (!key.startsWith(PREFIX)) return;
      const { values, index } = JSON.parse(value) as { values: Record<string, string[]>; index: number };
      later(key, () => void client.saveDraft(key.slice(PREFIX.length), { values, index }));
    },
    removeItem(key) {
      // Settled or emptied: nothing more to send; the server reads a draft only while the set waits.
      clearTimeout(timers.get(key));
      timers.delete(key);
      local?.removeItem(key);
    },
  };
}

/** Whether `client` keeps drafts on its server (the reference server's client does; AG-UI's has nowhere to). */
export function savesDrafts(client: object): client is Pick<ToolCallClient, "saveDraft"> {
  return typeof (client as { saveDraft?: unknown }).saveDraft === "function";
}

/**
 * Puts a draft from the server into `local` before the set's form reads it, unless the tab has
 * one of its own (the person's latest work here wins).
 */
export function seedDraft(
  local: DraftStorage | undefined,
  callId: string,
  draft: { values: Record<string, string[]>; index: number } | undefined,
): void {
  if (!local || !draft) return;
  const key = draftKey(callId);
  try {
    if (local.getItem(key) !== null) return;
    local.setItem(key, JSON.stringify({ version: 1, values: draft.values, index: draft.index }));
  } catch {
    // Storage refused: the form starts from the pre-picked answers.
  }
}
