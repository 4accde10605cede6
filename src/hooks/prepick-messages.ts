import type { RunErrorCode } from "@/lib/prepick/core/frames";

/**
 * A number as a sentence needs it: `value` picks the plural form (`Intl.PluralRules` in the
 * messages' own language), `text` is the number written for the locale (`1,000` or `1.000`).
 */
export interface Count {
  /** The number itself, for choosing a plural form. */
  value: number;
  /** The number formatted for the locale, for showing. */
  text: string;
}

/** The bounds of a number question, formatted for the locale; what an answer must be. */
export interface NumberRange {
  /** The smallest number allowed. */
  min?: string;
  /** The largest number allowed. */
  max?: string;
  /** True when only whole numbers are allowed (`input.step` of 1, or any whole step from a whole start). */
  whole: boolean;
  /** The step between allowed numbers, when it is not 1. */
  step?: string;
}

/** The bounds of a date or date-and-time question, formatted for the locale. */
export interface DateRange {
  /** The earliest allowed. */
  min?: string;
  /** The latest allowed. */
  max?: string;
}

/**
 * Every sentence the question form, the chat and its cards show a person, in one object. The
 * English defaults are {@link englishMessages}; {@link resolveMessages} lays an app's own over
 * them, section by section, so an app translates some strings or all. A string that needs
 * parameters is a function; counts come as {@link Count} so each language picks its own plural.
 */
export interface PrepickMessages {
  /**
   * The locale numbers and dates are formatted for (with `Intl`), in sentences and in the
   * settled view. Undefined: the person's own (the browser's default locale).
   */
  locale: string | string[] | undefined;
  /** The question form while pending. */
  form: {
    /** The form's accessible name. */
    label: string;
    /** One at a time: `Question 1 of 3` (`position` counts from 1). */
    progress: (position: number, count: number) => string;
    /** All at once: `3 questions`. */
    count: (count: Count) => string;
    /** The button that confirms a question and shows the next. */
    next: string;
    /** The button that sends the answers. */
    confirm: string;
    /** The confirm button while the answers are on their way. */
    sending: string;
    /** The Next button while the lazily loaded pattern engine is on its way to check the answer. */
    checking: string;
    /** The button back to the previous question. */
    back: string;
    /** The button that skips the set, leaving the agent's pre-picks to stand. */
    skip: string;
    /**
     * The skip button of a set where some question has nothing pre-picked (`snapshot.leftToAgent`):
     * the agent's picks stand where it has them and it decides the rest.
     */
    skipToAgent: string;
    /** The skip button while the skip is on its way. */
    skipping: string;
    /** The button that sends a failed answer or skip again. */
    retry: string;
    /** The label of the field for an answer of one's own beside the options. */
    freeText: string;
    /** The empty choice of a select with nothing picked. */
    choose: string;
    /** The mark beside the agent's own pick. */
    prePicked: string;
    /** An option of a native select that is the agent's own pick. */
    prePickedOption: (label: string) => string;
    /** A boolean question's yes. */
    yes: string;
    /** A boolean question's no. */
    no: string;
    /** The live count under capped text while it fits: `488 characters left`. */
    charactersLeft: (left: Count) => string;
    /** The live count under capped text once it is too long: `12 characters too many`. */
    charactersOver: (over: Count) => string;
  };
  /** The keyboard hints under the form; each names what its key does where the focus is. */
  hints: {
    /** Enter, on any question but the last. */
    next: string;
    /** Enter (or Ctrl/⌘+Enter in a textarea) on the last question. */
    confirm: string;
    /** Enter in a textarea. */
    newLine: string;
    /** The `s` key. */
    skip: string;
    /** The `s` key, on a set where some question has nothing pre-picked. */
    skipToAgent: string;
  };
  /** The inline question a skip asks when the person changed something. */
  skipConfirm: {
    /** What the person is asked. */
    question: string;
    /** What the person is asked, on a set where some question has nothing pre-picked. */
    questionToAgent: string;
    /** Confirms: the changes go, the agent's picks stand. */
    discard: string;
    /** Cancels: back to the form, the changes kept. */
    keep: string;
  };
  /** The form's own line when something went wrong with the whole set (each takes the technical detail). */
  status: {
    /** The answers were refused and no question can show why; `detail` is the refusal's own words when it names no question, else empty. */
    refused: (detail: string) => string;
    /** The answers never reached the server. */
    answerNotSent: (detail: string) => string;
    /** The skip never reached the server, or was refused. */
    skipNotSent: (detail: string) => string;
    /** The pattern engine did not load, so answers cannot be checked. */
    cannotCheck: (detail: string) => string;
  };
  /** Why an answer is refused, one sentence per kind of problem (see `issueSentence`). */
  errors: {
    /**
     * A required question left empty, named by its prompt (given isolated, so the agent's words keep
     * their own direction): `“Who should we email?” needs an answer.`
     */
    required: (prompt: string) => string;
    /** A value that is not one of the options. */
    option: string;
    /** More than one value on a single-choice question. */
    single: string;
    /** A boolean that is neither yes nor no. */
    boolean: string;
    /** A number that is not one, or outside its range or step. */
    number: (range: NumberRange) => string;
    /** Text shorter than its minimum: `At least 3 characters (2 now).` */
    textTooShort: (min: Count, length: Count) => string;
    /** Text longer than its maximum: `At most 500 characters (512 now).` */
    textTooLong: (max: Count, length: Count) => string;
    /** A date that is not a real `YYYY-MM-DD` day. */
    date: string;
    /** A date and time that is not a real `YYYY-MM-DDTHH:mm`. */
    datetime: string;
    /** A date, or date and time, outside its range. */
    dateRange: (range: DateRange) => string;
    /** Not an email address. */
    email: string;
    /** Not a web address. */
    url: string;
    /** A web address whose scheme is not allowed; `schemes` is the allowed starts (`https://`, `mailto:`), listed for the locale. */
    scheme: (schemes: string) => string;
    /** Not in the form the question asks for; `example` is the question's placeholder, when it has one. */
    pattern: (example: string | undefined) => string;
    /** Fewer picks than a multiple-choice question needs (`minItems`); `count` is how many now. */
    tooFewPicks: (min: Count, count: Count) => string;
    /** More picks than a multiple-choice question allows (`maxItems`); `count` is how many now. */
    tooManyPicks: (max: Count, count: Count) => string;
    /** An answer to a question this set does not have. */
    unknownQuestion: string;
    /** An answer that could not be read at all. */
    unreadable: string;
    /** A refusal of a kind this version does not know. */
    refused: string;
  };
  /** The settled set and the dismissed line. */
  settled: {
    /** The heading of a set the person answered. */
    answered: string;
    /** The heading of a skipped set. */
    skipped: string;
    /** The heading of a skipped set where some question had nothing pre-picked: the agent decides it. */
    skippedToAgent: string;
    /** The mark on an answer that is the agent's pre-pick. */
    prePicked: string;
    /** A question the person left empty. */
    noAnswer: string;
    /** A skipped question with nothing pre-picked: the agent decides. */
    leftToAgent: string;
    /** A set whose run was cancelled before anyone answered. */
    dismissed: string;
  };
  /** The card of a tool call waiting for approval. */
  approval: {
    /** The title while waiting: `Allow purge_cache to run?`. */
    title: (toolName: string) => string;
    /** The title once approved. */
    approvedTitle: (toolName: string) => string;
    /** The title once rejected. */
    rejectedTitle: (toolName: string) => string;
    /** The label of the optional reason field. */
    reason: string;
    /** The approve button. */
    approve: string;
    /** The approve button while the decision is on its way. */
    approving: string;
    /** The reject button. */
    reject: string;
    /** The reject button while the decision is on its way. */
    rejecting: string;
    /** The button that sends a failed decision again. */
    retry: string;
    /** The decision line once approved. */
    approved: string;
    /** The decision line once rejected, with the reason when one was given. */
    rejected: (reason: string | undefined) => string;
    /** Added when the call had already been decided elsewhere. */
    decidedElsewhere: string;
    /** The decision never reached the server. */
    notSent: (detail: string) => string;
    /** The mark beside a field of an editable call that holds the model's proposed value. */
    proposed: string;
    /** An option of a native select that is the model's proposed value. */
    proposedOption: (label: string) => string;
    /** The heading above an editable call's fields while it waits. */
    editHint: string;
    /** The decision line once an editable call was approved with changes. */
    approvedWithEdits: string;
    /** Beside a changed field's value in the settled card: what the model had proposed. */
    wasProposed: (value: string) => string;
  };
  /** A tool call's card. */
  toolCall: {
    /** The status word while running. */
    running: string;
    /** The status word once done. */
    done: string;
    /** The status word once failed. */
    failed: string;
    /** The status word once rejected. */
    rejected: string;
    /** The status word when its run was cancelled first. */
    cancelled: string;
    /** The heading of the tool's input. */
    input: string;
    /** The heading of the tool's output. */
    output: string;
    /** The heading of the tool's error. */
    error: string;
    /** The error line when the tool gave none. */
    failedWithoutReason: string;
    /** The line while the call runs. */
    waiting: string;
    /** The line of a call the person rejected, with their reason when they gave one. */
    rejectedBecause: (reason: string | undefined) => string;
    /** A call cancelled with its run before anyone decided. */
    cancelledBeforeDecision: string;
    /** A model's `ask` the server refused as malformed. */
    malformedAsk: string;
    /** The disclosure that shows the technical details. */
    details: string;
  };
  /** The message box. */
  composer: {
    /** Its accessible name. */
    label: string;
    /** The hint in the empty box. */
    placeholder: string;
    /** The hint while a question or an approval waits for the person. */
    waitingPlaceholder: string;
    /** The send button's name. */
    send: string;
    /** The stop button's name. */
    stop: string;
    /** A message that did not reach the server (its text is kept). */
    notSent: (detail: string) => string;
    /** A message the server answered but did not take; `detail` is the server's own words. */
    refused: (detail: string) => string;
    /** The button that sends it again. */
    retry: string;
    /** The button that puts the error away. */
    dismiss: string;
  };
  /** The conversation around the cards. */
  chat: {
    /** The heading of the chat block. */
    title: string;
    /** The conversation log's accessible name. */
    conversation: string;
    /** The transcript's line while there are no messages. */
    empty: string;
    /** The chat block's invitation while the conversation is empty. */
    start: string;
    /** A conversation that could not be loaded. */
    loadFailed: (detail: string) => string;
    /** A reply that stopped before it finished. */
    replyFailed: (detail: string) => string;
    /**
     * A reply the server ended as failed, by why (`failure.code`, see `RunErrorCode`), with the id
     * a person quotes to support when there is one (`readRunFailure(chat.error)` gives both).
     */
    runFailed: (failure: { code: RunErrorCode; errorId?: string }) => string;
    /** The button back to the newest message. */
    jumpToLatest: string;
    /** The button above the first message that loads the ones before it. */
    showEarlier: string;
    /** That button while they load. */
    loadingEarlier: string;
    /** The button under a long message of the person's that shows the rest of it. */
    showMore: string;
    /** That button once the message is whole: folds it again. */
    showLess: string;
    /** The button under an agent's message that copies its text. */
    copy: string;
    /** Said once the text is on the clipboard. */
    copied: string;
    /** Said when the browser would not copy it. */
    copyFailed: string;
    /** The chat block's list of the person's conversations. */
    conversations: string;
    /** The chat block's button that starts a conversation. */
    newConversation: string;
    /** The chat block's button to the calls waiting for the person (with their count beside it). */
    inbox: string;
    /** Closes the chat block's conversations and inbox on a phone. */
    close: string;
    /** Who a person's message is from. */
    you: string;
    /** Who the agent's message is from. */
    assistant: string;
    /** The reasoning disclosure while it streams. */
    thinking: string;
    /** The reasoning disclosure once done. */
    reasoning: string;
    /** The status while a question or approval waits for the person. */
    waiting: string;
    /** The status while the agent works. */
    working: string;
    /** Said while the server cannot be reached (the network is gone, or the server is down). */
    offline: string;
    /** Said for a moment once the server can be reached again. */
    reconnected: string;
  };
  /** The inbox of calls waiting for the person, across conversations. */
  inbox: {
    /** Its heading. */
    title: string;
    /** Said when nothing waits. */
    empty: string;
    /** What the count beside the inbox says to a screen reader: `3 calls wait for you`. */
    waiting: (count: Count) => string;
    /** A waiting question set, in a few words: `3 questions from refactorer`. */
    questions: (count: Count, agent: string) => string;
    /** A waiting approval, in a few words: `Approve purge_cache?`. */
    approval: (toolName: string) => string;
    /** A conversation without a title of its own. */
    untitled: (agent: string) => string;
    /** The button that opens a conversation (its name follows, for a screen reader). */
    openConversation: string;
    /** Said once a call answered in the inbox has left it. */
    answered: string;
    /** Said once an approval decided in the inbox has left it. */
    decided: string;
    /** Said once a question set skipped in the inbox has left it. */
    skipped: string;
    /** Said once a question set skipped in the inbox has left it, where some question had no pick. */
    skippedToAgent: string;
  };
  /** The list of the person's conversations. */
  threads: {
    /** Said when there are none. */
    empty: string;
    /** The button that loads older conversations. */
    older: string;
    /** How many calls wait in a conversation, said after its count: `2 waiting`. */
    waiting: (count: Count) => string;
  };
  /** One call opened by its own link (`/answer/:callId`). */
  call: {
    /** Said while the call is read. */
    loading: string;
    /** Said for a call that does not exist or is someone else's: the server tells neither apart. */
    notFound: string;
    /** Said when the server could not be read. */
    failed: string;
    /** The button beside `failed` that reads the call again. */
    tryAgain: string;
    /**
     * Said of a call that had stopped waiting before the page opened, by its status and whether it
     * is a question set (answered) or an approval (decided).
     */
    settled: (status: string, kind: "questions" | "approval") => string;
  };
  /**
   * A call's opt-in deadline (its run's, when the caller bounded it). `time` is when, written for
   * the locale; `left` how long is left, in its largest unit for the locale (`12 minutes`).
   */
  deadline: {
    /** Under a waiting question set. */
    answerBy: (time: string, left: string) => string;
    /** On a waiting approval. */
    decideBy: (time: string, left: string) => string;
    /** A question set whose deadline passed before anyone answered: its run stopped. */
    questionsExpired: (time: string) => string;
    /**
     * A set still shown past its deadline: it can no longer be answered. (The reference server
     * stops the run at its deadline and the set is then `questionsExpired`; an AG-UI agent's
     * interrupt waits for the person to skip it.)
     */
    questionsLapsed: (time: string) => string;
    /** An approval whose deadline passed before anyone decided: its run stopped. */
    approvalExpired: (time: string) => string;
  };
}

/** An app's messages: any section, any string of it; what is left out stays English. */
export type PrepickMessagesInput = {
  [Section in keyof PrepickMessages]?: PrepickMessages[Section] extends string | string[] | undefined
    ? PrepickMessages[Section]
    : Partial<PrepickMessages[Section]>;
};

const englishPlurals = new Intl.PluralRules("en");

/** `1 character` or `2 characters`, by the English plural rules. */
function characters(count: Count): string {
  return `${count.text} ${englishPlurals.select(count.value) === "one" ? "character" : "characters"}`;
}

function numberNoun(range: NumberRange): string {
  return range.whole ? "a whole number" : "a number";
}

/** The English defaults. */
export const englishMessages: PrepickMessages = {
  locale: undefined,
  form: {
    label: "Questions from the agent",
    progress: (position, count) => `Question ${position} of ${count}`,
    count: (count) =>
      `${count.text} ${englishPlurals.select(count.value) === "one" ? "question" : "questions"}`,
    next: "Next",
    confirm: "Confirm",
    sending: "Sending…",
    checking: "Checking…",
    back: "Back",
    skip: "Skip: use the agent's picks",
    skipToAgent: "Skip: let the agent decide",
    skipping: "Skipping…",
    retry: "Retry",
    freeText: "Or write your own answer",
    choose: "Choose…",
    prePicked: "pre-picked",
    prePickedOption: (label) => `${label} (pre-picked)`,
    yes: "Yes",
    no: "No",
    charactersLeft: (left) => `${characters(left)} left`,
    charactersOver: (over) => `${characters(over)} too many`,
  },
  hints: {
    next: "next question",
    confirm: "confirm",
    newLine: "new line",
    skip: "skip: use the agent's picks",
    skipToAgent: "skip: let the agent decide",
  },
  skipConfirm: {
    question: "You changed some answers. Skip anyway and let the agent's picks stand?",
    questionToAgent: "You changed some answers. Skip anyway and let the agent decide?",
    discard: "Discard my changes and skip",
    keep: "Keep my changes",
  },
  status: {
    refused: (detail) =>
      detail === "" ? "These answers were not accepted." : `These answers were not accepted. ${detail}`,
    answerNotSent: () => "Your answers were not sent. Check your connection, then retry.",
    skipNotSent: () => "The skip was not sent. Check your connection, then retry.",
    cannotCheck: () => "These answers cannot be checked right now. Check your connection, then retry.",
  },
  errors: {
    required: (prompt) => `“${prompt}” needs an answer.`,
    option: "Choose one of the options.",
    single: "Choose only one.",
    boolean: "Choose Yes or No.",
    number: (range) => {
      const noun = numberNoun(range);
      const steps = range.step !== undefined ? `, in steps of ${range.step}` : "";
      if (range.min !== undefined && range.max !== undefined) {
        return `Enter ${noun} from ${range.min} to ${range.max}${steps}.`;
      }
      if (range.min !== undefined) return `Enter ${noun} of at least ${range.min}${steps}.`;
      if (range.max !== undefined) return `Enter ${noun} of at most ${range.max}${steps}.`;
      return `Enter ${noun}${steps}.`;
    },
    textTooShort: (min, length) => `At least ${characters(min)} (${length.text} now).`,
    textTooLong: (max, length) => `At most ${characters(max)} (${length.text} now).`,
    date: "Enter a date, like 2026-12-04.",
    datetime: "Enter a date and time, like 2026-12-04 14:30.",
    dateRange: (range) => {
      if (range.min !== undefined && range.max !== undefined) {
        return `Pick a date from ${range.min} to ${range.max}.`;
      }
      if (range.min !== undefined) return `Pick a date on or after ${range.min}.`;
      return `Pick a date on or before ${range.max}.`;
    },
    email: "Enter an email address, like name@example.com.",
    url: "Enter a web address, like https://example.com.",
    scheme: (schemes) => `Enter a web address starting with ${schemes}.`,
    pattern: (example) =>
      example !== undefined
        ? `Enter it in the form asked for (${example}).`
        : "Enter it in the form the question asks for.",
    tooFewPicks: (min) => `Pick at least ${min.text}.`,
    tooManyPicks: (max) => `Pick at most ${max.text}.`,
    unknownQuestion: "An answer was sent to a question this set does not have.",
    unreadable: "This answer could not be read.",
    refused: "This answer was not accepted.",
  },
  settled: {
    answered: "Answered",
    skipped: "Skipped: the agent's picks stand.",
    skippedToAgent: "Skipped: the agent decides what it has no pick for.",
    prePicked: "pre-picked",
    noAnswer: "No answer",
    leftToAgent: "No answer: the agent decides",
    dismissed: "These questions were not answered: the run was cancelled.",
  },
  approval: {
    title: (toolName) => `Allow ${toolName} to run?`,
    approvedTitle: (toolName) => `${toolName} approved`,
    rejectedTitle: (toolName) => `${toolName} rejected`,
    reason: "Reason, if you reject (optional)",
    approve: "Approve",
    approving: "Approving…",
    reject: "Reject",
    rejecting: "Rejecting…",
    retry: "Retry",
    approved: "You approved this call.",
    rejected: (reason) => (reason ? `You rejected this call. Reason: ${reason}` : "You rejected this call."),
    decidedElsewhere: "It had already been decided elsewhere.",
    notSent: () => "Your decision was not sent. Check your connection, then retry.",
    proposed: "proposed",
    proposedOption: (label) => `${label} (proposed)`,
    editHint: "The agent proposed these values. Change any before you approve.",
    approvedWithEdits: "You approved this call with your changes.",
    wasProposed: (value) => `proposed: ${value}`,
  },
  toolCall: {
    running: "Running",
    done: "Done",
    failed: "Failed",
    rejected: "Rejected",
    cancelled: "Cancelled",
    input: "Input",
    output: "Output",
    error: "Error",
    failedWithoutReason: "The tool failed.",
    waiting: "Waiting for the result…",
    rejectedBecause: (reason) => (reason ? `Rejected: ${reason}` : "Rejected."),
    cancelledBeforeDecision: "Cancelled with its run before anyone decided.",
    malformedAsk: "The agent's questions were malformed; it was asked to try again.",
    details: "Details",
  },
  composer: {
    label: "Message",
    placeholder: "Send a message…",
    waitingPlaceholder: "Answer the agent above to continue",
    send: "Send",
    stop: "Stop",
    notSent: () => "Your message was not sent. Check your connection, then retry.",
    refused: (detail) => `Your message was not accepted: ${detail}`,
    retry: "Retry",
    dismiss: "Dismiss",
  },
  chat: {
    title: "Agent",
    conversation: "Conversation",
    empty: "No messages yet. Say what you need and the agent will take it from there.",
    start:
      "Say what you need. If the agent has questions, it asks them first, with its own picks pre-selected.",
    loadFailed: () => "This conversation could not be loaded. Check your connection, then reload the page.",
    replyFailed: () => "The reply stopped before it finished. Check your connection, then send again.",
    runFailed: ({ code, errorId }) => {
      const id = errorId ? ` If it keeps happening, quote error ${errorId}.` : "";
      switch (code) {
        case "model-timeout":
          return `The agent's model took too long to answer, so the reply stopped. Send your message again to retry.${id}`;
        case "model-failed":
          return `The agent's model could not answer, so the reply stopped. Send your message again to retry.${id}`;
        case "step-limit":
          return `The agent kept working without reaching an answer, so it stopped. Try asking in smaller steps.${id}`;
        case "agent-changed":
          return `The agent was updated while it worked on this reply, so the reply stopped. Send your message again.${id}`;
        case "agent-missing":
          return `This conversation's agent is no longer available, so it cannot reply.${id}`;
        default:
          return `Something went wrong on the server, so the reply stopped.${id}`;
      }
    },
    jumpToLatest: "Jump to latest",
    showEarlier: "Show earlier messages",
    loadingEarlier: "Loading earlier messages…",
    showMore: "Show more",
    showLess: "Show less",
    copy: "Copy",
    copied: "Copied",
    copyFailed: "Could not copy. Select the text to copy it.",
    conversations: "Conversations",
    newConversation: "New conversation",
    inbox: "Inbox",
    close: "Close",
    you: "You",
    assistant: "Assistant",
    thinking: "Thinking…",
    reasoning: "Reasoning",
    waiting: "Waiting for your answer",
    working: "Working…",
    offline: "The server cannot be reached. Reconnecting…",
    reconnected: "Connected again.",
  },
  inbox: {
    title: "Waiting for you",
    empty: "Nothing waits for you.",
    waiting: (count) =>
      count.value === 0
        ? "Nothing waits for you"
        : englishPlurals.select(count.value) === "one"
          ? `${count.text} call waits for you`
          : `${count.text} calls wait for you`,
    questions: (count, agent) =>
      `${count.text} ${englishPlurals.select(count.value) === "one" ? "question" : "questions"} from ${agent}`,
    approval: (toolName) => `Approve ${toolName}?`,
    untitled: (agent) => `Conversation with ${agent}`,
    openConversation: "Open conversation",
    answered: "Answered. The agent goes on in the conversation.",
    decided: "Decided. The agent goes on in the conversation.",
    skipped: "Skipped: the agent's picks stand. It goes on in the conversation.",
    skippedToAgent: "Skipped: the agent decides. It goes on in the conversation.",
  },
  threads: {
    empty: "No conversations yet.",
    older: "Older conversations",
    waiting: (count) => `${count.text} waiting`,
  },
  call: {
    loading: "Opening what waits for you…",
    notFound: "Nothing waits for you at this link. It may be someone else's, or it no longer exists.",
    failed: "This could not be opened just now. Try again in a moment.",
    tryAgain: "Try again",
    settled: (status, kind) =>
      ({
        answered: "This was already answered.",
        skipped: "This was already skipped: the agent's picks stood.",
        approved: "This was already approved.",
        rejected: "This was already rejected.",
        expired:
          kind === "approval"
            ? "This expired before anyone decided it."
            : "This expired before anyone answered it.",
      })[status] ?? "This no longer waits: its conversation was stopped.",
  },
  deadline: {
    answerBy: (time, left) => `Answer by ${time} (${left} left). If no one answers by then, the agent stops.`,
    decideBy: (time, left) => `Decide by ${time} (${left} left). If no one decides by then, the agent stops.`,
    questionsExpired: (time) =>
      `These questions expired at ${time} before anyone answered, so the agent stopped.`,
    approvalExpired: (time) => `This expired at ${time} before anyone decided, so the agent stopped.`,
    questionsLapsed: (time) => `These questions expired at ${time} and can no longer be answered.`,
  },
};

/**
 * An app's messages laid over the English defaults, section by section: `{ form: { next: "Weiter" } }`
 * changes one button and keeps every other string. Without input, the English defaults themselves.
 * `base` is what the input is laid over instead of English (an enclosing provider's messages).
 */
export function resolveMessages(
  input: PrepickMessagesInput | undefined,
  base: PrepickMessages = englishMessages,
): PrepickMessages {
  if (input === undefined) return base;
  const resolved: Record<string, unknown> = { ...base };
  for (const [section, value] of Object.entries(input)) {
    const base = resolved[section];
    resolved[section] =
      typeof base === "object" && base !== null && !Array.isArray(base)
        ? { ...base, ...(value as object) }
        : value;
  }
  return resolved as unknown as PrepickMessages;
}
