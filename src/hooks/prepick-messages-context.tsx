"use client";

import * as React from "react";
import {
  englishMessages,
  type PrepickMessages,
  type PrepickMessagesInput,
  resolveMessages,
} from "./prepick-messages";

const PrepickMessagesContext = React.createContext<PrepickMessages | undefined>(undefined);

/**
 * Sets the language of everything inside: the cards, the composer, the transcript, and the
 * question sets `useChatTranscript` makes below it (their errors and settled answers). `messages`
 * is laid over the enclosing provider's, or over English, section by section.
 */
function PrepickMessagesProvider({
  messages,
  children,
}: {
  /** The strings to change; what is left out stays as the enclosing provider (or English) has it. */
  messages: PrepickMessagesInput;
  children?: React.ReactNode;
}) {
  const outer = React.useContext(PrepickMessagesContext);
  const resolved = React.useMemo(
    () => resolveMessages(messages, outer ?? englishMessages),
    [messages, outer],
  );
  return <PrepickMessagesContext.Provider value={resolved}>{children}</PrepickMessagesContext.Provider>;
}

/**
 * The messages a component speaks: its own `messages` prop laid over the nearest
 * {@link PrepickMessagesProvider}'s, else `fallback`, else English.
 */
function usePrepickMessages(own?: PrepickMessagesInput, fallback?: PrepickMessages): PrepickMessages {
  const context = React.useContext(PrepickMessagesContext);
  const base = context ?? fallback ?? englishMessages;
  return React.useMemo(() => resolveMessages(own, base), [own, base]);
}

export { PrepickMessagesProvider, usePrepickMessages };
