import { MastraAgent } from "@ag-ui/mastra";
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4StreamPart,
} from "@ai-sdk/provider";
import { Mastra } from "@mastra/core";
import { Agent } from "@mastra/core/agent";
import type { MastraModelConfig } from "@mastra/core/llm";
import { InMemoryStore } from "@mastra/core/storage";
import { createTool } from "@mastra/core/tools";
import { z } from "zod";

/** The results of earlier tool calls in a prompt, by tool name. */
function toolResults(options: LanguageModelV4CallOptions): Map<string, unknown> {
  const results = new Map<string, unknown>();
  for (const message of options.prompt) {
    if (message.role !== "tool") continue;
    for (const part of message.content) {
      if (part.type !== "tool-result") continue;
      results.set(part.toolName, "value" in part.output ? part.output.value : undefined);
    }
  }
  return results;
}

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

function stream(parts: LanguageModelV4StreamPart[]) {
  return {
    stream: new ReadableStream<LanguageModelV4StreamPart>({
      start(controller) {
        controller.enqueue({ type: "stream-start", warnings: [] });
        for (const part of parts) controller.enqueue(part);
        controller.close();
      },
    }),
  };
}

function say(id: string, text: string): LanguageModelV4StreamPart[] {
  return [
    { type: "text-start", id },
    { type: "text-delta", id, delta: text },
    { type: "text-end", id },
  ];
}

/**
 * The model a refactoring agent would run on, scripted: it thinks, reads the file, asks how much
 * to cover (a tool that suspends until the person answers), then says what it will do.
 */
export const refactoringModel: LanguageModelV4 = {
  specificationVersion: "v4",
  provider: "prepick-test",
  modelId: "refactorer",
  supportedUrls: {},
  async doGenerate() {
    throw new Error("The refactoring model only streams.");
  },
  async doStream(options) {
    const results = toolResults(options);
    const finish = (unified: "stop" | "tool-calls"): LanguageModelV4StreamPart => ({
      type: "finish",
      finishReason: { unified, raw: unified },
      usage,
    });
    if (!results.has("read_file")) {
      return stream([
        { type: "reasoning-start", id: "think-1" },
        { type: "reasoning-delta", id: "think-1", delta: "I should read the parser before I touch it." },
        { type: "reasoning-end", id: "think-1" },
        ...say("say-1", "Let me read the parser first."),
        {
          type: "tool-call",
          toolCallId: "call-read",
          toolName: "read_file",
          input: '{"path":"src/parser.ts"}',
        },
        finish("tool-calls"),
      ]);
    }
    const scope = results.get("ask_scope") as { scope?: string } | undefined;
    if (!scope) {
      return stream([
        {
          type: "tool-call",
          toolCallId: "call-ask",
          toolName: "ask_scope",
          input: '{"file":"src/parser.ts"}',
        },
        finish("tool-calls"),
      ]);
    }
    return stream([...say("say-2", `Refactoring with scope ${scope.scope}.`), finish("stop")]);
  },
};

const readFile = createTool({
  id: "read_file",
  description: "Reads a file of the project.",
  inputSchema: z.object({ path: z.string() }),
  execute: async ({ path }) => ({ path, lines: 120 }),
});

/** Suspends until the person says how much to cover; Mastra's AG-UI bridge turns it into an interrupt. */
const askScope = createTool({
  id: "ask_scope",
  description: "Asks the person how much of the code to cover.",
  inputSchema: z.object({ file: z.string() }),
  suspendSchema: z.object({ file: z.string() }),
  resumeSchema: z.object({
    scope: z
      .enum(["file", "module"])
      .default("module")
      .meta({ title: "How much should I cover?", description: "The whole module includes its tests." }),
  }),
  execute: async ({ file }, context) => {
    const answer = context.agent?.resumeData as { scope: string } | undefined;
    if (!answer) {
      await context.agent?.suspend({ file });
      return undefined;
    }
    return { scope: answer.scope };
  },
});

/** A Mastra instance with the refactorer, its runs kept in memory. */
export function refactoringMastra(): Mastra {
  const agent = new Agent({
    id: "refactorer",
    name: "refactorer",
    instructions: "You refactor TypeScript. Ask how much to cover before you change anything.",
    // Mastra types models against its own bundled copy of the AI SDK provider types: the same V4 spec.
    model: refactoringModel as unknown as MastraModelConfig,
    tools: { read_file: readFile, ask_scope: askScope },
  });
  return new Mastra({ agents: { refactorer: agent }, storage: new InMemoryStore(), logger: false });
}

/** The refactorer as an AG-UI agent, through `@ag-ui/mastra`. */
export function refactoringAgUiAgent(mastra: Mastra, threadId?: string): MastraAgent {
  return new MastraAgent({
    agentId: "refactorer",
    agent: mastra.getAgent("refactorer"),
    resourceId: "ada",
    ...(threadId !== undefined ? { threadId } : {}),
  });
}
