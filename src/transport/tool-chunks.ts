import type { UIMessageChunk } from "ai";
import type { ApprovalEdits } from "@/lib/prepick/core/approval-edits";
import { ASK_TOOL_NAME } from "@/lib/prepick/core/ask-tool";
import type { ElicitationOutcome, ElicitationRequest, Question } from "@/lib/prepick/core/question";

/**
 * The AI SDK chunks a transport writes for the agent's tool calls, in one place, so both
 * transports spell each part the same way. Every call here runs on the agent's side, never in the
 * page, so each part is provider-executed: the AI SDK then waits for its output from the stream
 * instead of asking the page to run it. A question set is one dynamic `ask` part from the moment
 * it is posted until it settles, however many responses that spans.
 */
type Chunk<T extends UIMessageChunk["type"]> = Extract<UIMessageChunk, { type: T }>;

/** A part without a tool the page knows by type (a question set, an interrupt's own approval). */
interface Dynamic {
  /** True for a dynamic tool part. */
  dynamic?: boolean;
}

const dynamicFlag = (dynamic: boolean | undefined) => (dynamic ? { dynamic: true } : {});

/** Every part here runs on the agent's side. */
const onAgentSide = { providerExecuted: true } as const;

/**
 * A question set, as posted: the dynamic `ask` part, its input the request; its run's deadline,
 * when it has one, rides as the tool's metadata.
 */
export function askInputChunk(
  toolCallId: string,
  request: ElicitationRequest,
  expiresAt?: string,
): Chunk<"tool-input-available"> {
  return toolInputChunk({ toolCallId, toolName: ASK_TOOL_NAME, input: request, expiresAt, dynamic: true });
}

/** A question set's outcome (answered or skipped): settles its `ask` part. */
export function askOutputChunk(
  toolCallId: string,
  outcome: ElicitationOutcome,
): Chunk<"tool-output-available"> {
  return toolOutputChunk({ toolCallId, output: outcome, dynamic: true });
}

/** A tool call whose input is streaming in (its arguments follow as `tool-input-delta`). */
export function toolInputStartChunk(toolCallId: string, toolName: string): Chunk<"tool-input-start"> {
  return { type: "tool-input-start", toolCallId, toolName, ...onAgentSide };
}

/**
 * A tool call with its whole input. What the tool does (`description`), its run's deadline while
 * it waits on a person (`expiresAt`) and, for a call awaiting approval whose input is editable,
 * its fields as questions pre-picked with the proposal (`questions`) ride as the tool's metadata.
 */
export function toolInputChunk(
  call: {
    toolCallId: string;
    toolName: string;
    input: unknown;
    description?: string | undefined;
    expiresAt?: string | undefined;
    questions?: readonly Question[] | undefined;
  } & Dynamic,
): Chunk<"tool-input-available"> {
  const { toolCallId, toolName, input, description, expiresAt, questions, dynamic } = call;
  const metadata = {
    ...(description !== undefined ? { description } : {}),
    ...(expiresAt !== undefined ? { expiresAt } : {}),
    ...(questions !== undefined ? { questions: questions as never } : {}),
  };
  return {
    type: "tool-input-available",
    toolCallId,
    toolName,
    input,
    ...dynamicFlag(dynamic),
    ...onAgentSide,
    // The AI SDK carries metadata about the tool itself onto the tool part as it is.
    ...(Object.keys(metadata).length > 0 ? { toolMetadata: metadata } : {}),
  };
}

/** A tool call whose input could not be read; the part shows the error. */
export function toolInputErrorChunk(call: {
  toolCallId: string;
  toolName: string;
  input: unknown;
  errorText: string;
}): Chunk<"tool-input-error"> {
  const { toolCallId, toolName, input, errorText } = call;
  return { type: "tool-input-error", toolCallId, toolName, input, ...onAgentSide, errorText };
}

/** A tool call's output. */
export function toolOutputChunk(
  result: { toolCallId: string; output: unknown } & Dynamic,
): Chunk<"tool-output-available"> {
  const { toolCallId, output, dynamic } = result;
  return { type: "tool-output-available", toolCallId, output, ...onAgentSide, ...dynamicFlag(dynamic) };
}

/** A tool call that failed. */
export function toolErrorChunk(
  result: { toolCallId: string; errorText: string } & Dynamic,
): Chunk<"tool-output-error"> {
  const { toolCallId, errorText, dynamic } = result;
  return { type: "tool-output-error", toolCallId, errorText, ...onAgentSide, ...dynamicFlag(dynamic) };
}

/** A tool call that will not run: rejected, skipped, or cancelled with its run. */
export function toolDeniedChunk(toolCallId: string): Chunk<"tool-output-denied"> {
  return { type: "tool-output-denied", toolCallId };
}

/** A tool call waits for a person's approval (`approvalId` is what approve and reject name). */
export function approvalRequestChunk(
  approvalId: string,
  toolCallId = approvalId,
): Chunk<"tool-approval-request"> {
  return { type: "tool-approval-request", approvalId, toolCallId };
}

/** The provider-metadata key under which an editable call's approval carries its edits. */
export const APPROVAL_EDITS_KEY = "prepick";

/**
 * The person's decision on an approval, with the reason given for a rejection. The approval of an
 * editable call carries the input it runs with and the fields edited (`edits`) as its provider
 * metadata, which the AI SDK keeps on the part as `callProviderMetadata.prepick`.
 */
export function approvalResponseChunk(
  approvalId: string,
  approved: boolean,
  reason?: string,
  edits?: ApprovalEdits,
): Chunk<"tool-approval-response"> {
  return {
    type: "tool-approval-response",
    approvalId,
    approved,
    ...(reason !== undefined ? { reason } : {}),
    ...(edits !== undefined
      ? { providerMetadata: { [APPROVAL_EDITS_KEY]: { input: edits.input as never, edited: edits.edited } } }
      : {}),
  };
}
