import type { Chat, UseChatHelpers } from "@ai-sdk/react";
import type { ChatTransport, UIMessage } from "ai";
import { describe, expectTypeOf, it } from "vitest";
import type { ElicitationOutcome, ElicitationRequest } from "@/lib/prepick/core/question";
import type {
  AgentChatTransport,
  ConversationTransport,
  ToolCallFailure,
  ToolCallResponse,
  ToolCallResult,
} from "@/lib/prepick/transport";
import type { AgUiChatTransport } from "@/lib/prepick/transport/ag-ui";
import { elicitationTransition } from "./elicitation-machine";
import {
  type AgentConversation,
  type ChatTranscript,
  createElicitation,
  type ElicitationBlock,
  type ElicitationQuestionState,
  type ElicitationState,
  type PrepickMessages,
  type TranscriptBlock,
  type TranscriptMessage,
  useAgentConversation,
  useChatTranscript,
  useElicitationQuestion,
} from "./index";
import type { TranscriptChat } from "./transcript-builder";
import type { AnswerState, SkipState } from "./transcript-types";

// These assertions are checked by the type checker (npm run typecheck); the runtime part is trivial.
describe("public API types", () => {
  it("AgentChatTransport is an AI SDK ChatTransport whose client returns typed results", () => {
    expectTypeOf<AgentChatTransport>().toExtend<ChatTransport<UIMessage>>();
    expectTypeOf<AgentChatTransport["client"]["answer"]>().returns.resolves.toEqualTypeOf<
      ToolCallResponse<ToolCallResult>
    >();
    expectTypeOf<
      Extract<ToolCallFailure, { kind: "invalid" }>["issues"][number]["questionId"]
    >().toEqualTypeOf<string>();
  });

  it("both transports are a ConversationTransport, which useAgentConversation runs over", () => {
    expectTypeOf<AgentChatTransport>().toExtend<ConversationTransport>();
    expectTypeOf<AgUiChatTransport>().toExtend<ConversationTransport>();
    expectTypeOf<ConversationTransport>().toExtend<ChatTransport<UIMessage>>();
    expectTypeOf(useAgentConversation)
      .parameter(0)
      .toHaveProperty("transport")
      .toEqualTypeOf<ConversationTransport>();
    expectTypeOf(useAgentConversation).returns.toEqualTypeOf<AgentConversation>();
    expectTypeOf<AgentConversation["messages"]>().toEqualTypeOf<readonly TranscriptMessage[]>();
    expectTypeOf<AgentConversation["status"]>().toEqualTypeOf<
      "submitted" | "streaming" | "ready" | "error" | "waiting"
    >();
    expectTypeOf<NonNullable<AgentConversation["error"]>["kind"]>().toEqualTypeOf<
      "not-sent" | "load" | "reply"
    >();
  });

  it("useChatTranscript takes useChat's helpers or a Chat, and returns blocks", () => {
    expectTypeOf<UseChatHelpers<UIMessage>>().toExtend<TranscriptChat>();
    expectTypeOf<Chat<UIMessage>>().toExtend<TranscriptChat>();
    expectTypeOf(useChatTranscript).returns.toEqualTypeOf<ChatTranscript>();
    expectTypeOf<Extract<TranscriptBlock, { type: "elicitation" }>>().toEqualTypeOf<ElicitationBlock>();
  });

  it("a question set's state is one union with one transition function; answer and skip are views of it", () => {
    expectTypeOf<ElicitationState["status"]>().toEqualTypeOf<"pending" | "settled" | "dismissed">();
    expectTypeOf(elicitationTransition).returns.toEqualTypeOf<ElicitationState>();
    expectTypeOf<AnswerState["status"]>().toEqualTypeOf<
      "idle" | "submitting" | "rejected" | "failed" | "settled"
    >();
    expectTypeOf<SkipState["status"]>().toEqualTypeOf<
      "idle" | "confirming" | "submitting" | "rejected" | "failed" | "settled"
    >();
    expectTypeOf<
      Extract<AnswerState, { status: "settled" }>["outcome"]
    >().toEqualTypeOf<ElicitationOutcome>();
  });

  it("an elicitation block exposes questions with value, setValue and error", () => {
    expectTypeOf(createElicitation)
      .parameter(0)
      .toHaveProperty("request")
      .toEqualTypeOf<ElicitationRequest>();
    expectTypeOf(createElicitation).returns.toEqualTypeOf<ElicitationBlock>();
    expectTypeOf<ElicitationQuestionState["value"]>().toEqualTypeOf<readonly string[]>();
    expectTypeOf<ElicitationQuestionState["setValue"]>().parameters.toEqualTypeOf<[raw: unknown]>();
    expectTypeOf<ElicitationQuestionState["error"]>().toEqualTypeOf<string | undefined>();
    expectTypeOf(useElicitationQuestion).returns.toEqualTypeOf<ElicitationQuestionState>();
    expectTypeOf<ElicitationBlock["getSnapshot"]>()
      .returns.toHaveProperty("isValid")
      .toEqualTypeOf<boolean>();
    expectTypeOf<ElicitationBlock["messages"]>().toEqualTypeOf<PrepickMessages>();
  });
});
