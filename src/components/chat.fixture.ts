import type { UIMessage } from "ai";
import { createApprovalBlock, type SendDecision } from "@/hooks/approval-store";
import { type CreateElicitationOptions, createElicitation } from "@/hooks/create-elicitation";
import type {
  ApprovalBlock,
  ApprovalState,
  ElicitationBlock,
  ReasoningBlock,
  TextBlock,
  ToolBlock,
  TranscriptBlock,
  TranscriptMessage,
} from "@/hooks/transcript-types";
import type { ApprovalEdits } from "@/lib/prepick/core/approval-edits";
import { settleAnswers } from "@/lib/prepick/core/outcome";
import type { Question } from "@/lib/prepick/core/question";
import { refactorerRequest } from "./elicitation.fixture";

/** Builders of transcript values for the chat components' stories and tests (no chat, no server). */

/** A text block of `messageId`. */
export function textBlock(messageId: string, text: string, streaming = false, index = 0): TextBlock {
  return { type: "text", id: `${messageId}:${index}`, messageId, text, streaming };
}

/** A reasoning block of `messageId`. */
export function reasoningBlock(
  messageId: string,
  text: string,
  streaming = false,
  index = 0,
): ReasoningBlock {
  return { type: "reasoning", id: `${messageId}:${index}`, messageId, text, streaming };
}

/** A tool call block of `messageId`. */
export function toolBlock(messageId: string, fields: Omit<ToolBlock, "type" | "messageId">): ToolBlock {
  return { type: "tool", messageId, ...fields };
}

/** An approval block with the real approval machine, started in `state`. */
export function approvalBlock(
  messageId: string,
  options: {
    id?: string;
    toolName?: string;
    input?: unknown;
    description?: string;
    expiresAt?: string;
    state?: ApprovalState;
    send?: SendDecision;
    questions?: Question[];
    edits?: ApprovalEdits;
  } = {},
): ApprovalBlock {
  return createApprovalBlock(
    {
      id: options.id ?? `${messageId}:approval`,
      messageId,
      toolName: options.toolName ?? "purge_cache",
      input: options.input ?? { region: "eu-west-1", keys: "all" },
      ...(options.description !== undefined ? { description: options.description } : {}),
      ...(options.expiresAt !== undefined ? { expiresAt: options.expiresAt } : {}),
      ...(options.state ? { state: options.state } : {}),
      ...(options.questions ? { questions: options.questions } : {}),
      ...(options.edits ? { edits: options.edits } : {}),
    },
    options.send ?? (async () => {}),
  );
}

/** The demo operator's purge as the model proposed it: the images cache, 24 hours back. */
export const proposedPurge = { cache: "images", hours: 24 };

/** The demo operator's editable purge fields, pre-picked with {@link proposedPurge}. */
export const purgeQuestions: Question[] = [
  {
    id: "cache",
    prompt: "Which cache should I purge?",
    options: [
      { value: "pages", label: "Pages", hotkey: "a" },
      { value: "images", label: "Images", hotkey: "b" },
      { value: "all", label: "Every cache", hotkey: "c" },
    ],
    defaults: ["images"],
  },
  {
    id: "hours",
    prompt: "How far back, in hours?",
    input: { type: "number", min: 1, max: 168, step: 1 },
    defaults: ["24"],
  },
];

/** The demo's purge awaiting approval with its fields editable, its decision sent through `send`. */
export function editablePurge(messageId: string, options: Parameters<typeof approvalBlock>[1] = {}) {
  return approvalBlock(messageId, {
    input: proposedPurge,
    description: "Purges one of the site's caches. Visitors see slower pages until it warms up again.",
    questions: purgeQuestions,
    ...options,
  });
}

/** An elicitation block of the refactorer's intake, settled locally unless told otherwise. */
export function refactorerElicitation(
  messageId: string,
  options: Partial<Omit<CreateElicitationOptions, "request">> = {},
): ElicitationBlock {
  return createElicitation({ id: `intake-${messageId}`, messageId, request: refactorerRequest, ...options });
}

/** A transcript message from its blocks; the AI SDK message carries the text parts. */
export function transcriptMessage(
  id: string,
  role: UIMessage["role"],
  blocks: readonly TranscriptBlock[],
): TranscriptMessage {
  const parts: UIMessage["parts"] = blocks.flatMap((block) =>
    block.type === "text" ? [{ type: "text" as const, text: block.text }] : [],
  );
  return { id, role, blocks, message: { id, role, parts } };
}

/** A message the person sent. */
export function userMessage(id: string, text: string): TranscriptMessage {
  return transcriptMessage(id, "user", [textBlock(id, text)]);
}

/** A conversation: a request, the intake settled, then the agent's reasoning, a tool call and reply. */
export function conversation(): TranscriptMessage[] {
  const intake = refactorerElicitation("m2", {
    outcome: settleAnswers(refactorerRequest.questions, { scope: ["file"] }),
  });
  return [
    userMessage("m1", "Refactor src/core/answers.ts so the resolution reads top to bottom."),
    transcriptMessage("m2", "assistant", [
      intake,
      reasoningBlock(
        "m2",
        "The person picked this file only and unit tests. I will read the file, then its tests.",
        false,
        1,
      ),
      toolBlock("m2", {
        id: "call-read",
        toolName: "read_file",
        input: { path: "src/core/answers.ts" },
        status: "done",
        output: { lines: 160 },
      }),
      textBlock(
        "m2",
        "I split `resolveAnswers` into three steps and kept the exported names. The unit tests pass.",
        false,
        3,
      ),
    ]),
    userMessage("m3", "Thanks. Can you also clear the build cache?"),
  ];
}

/** Storybook's viewport for a 390×844 phone, spread into a story (its play checks `innerWidth`). */
export const phoneViewport = {
  parameters: {
    viewport: {
      options: {
        phone: { name: "Phone 390×844", styles: { width: "390px", height: "844px" }, type: "mobile" },
      },
    },
  },
  globals: { viewport: { value: "phone", isRotated: false } },
} as const;
