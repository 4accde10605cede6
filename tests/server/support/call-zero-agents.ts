// Agents whose model numbers its tool calls from `call_0` in every response, as some
// OpenAI-compatible servers do: a call id is unique only within the response that made it.
// Hosted in-process by the tests and, through PREPICK_AGENTS_MODULE, by server processes.
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
} from "@ai-sdk/provider";
import { createScriptedModel, defineAgent } from "prepick/server";

/** Every tool-call id the model saw in a prompt, in order, by this process. */
export const promptCallIds: string[] = [];

/** The scripted model, answering with `call_<n>` ids that restart at 0 in every response. */
export function callZeroModel(): LanguageModelV4 {
  const scripted = createScriptedModel();
  return {
    specificationVersion: "v4",
    provider: "call-zero",
    modelId: "scripted",
    supportedUrls: {},
    doGenerate: (options) => scripted.doGenerate(options),
    async doStream(options: LanguageModelV4CallOptions): Promise<LanguageModelV4StreamResult> {
      for (const message of options.prompt) {
        if (message.role !== "assistant" && message.role !== "tool") continue;
        for (const part of message.content) {
          if (part.type === "tool-call" || part.type === "tool-result") promptCallIds.push(part.toolCallId);
        }
      }
      const { stream } = await scripted.doStream(options);
      const renamed = new Map<string, string>();
      const rename = (id: string) => {
        const known = renamed.get(id) ?? `call_${renamed.size}`;
        renamed.set(id, known);
        return known;
      };
      return {
        stream: stream.pipeThrough(
          new TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart>({
            transform(part, controller) {
              if (part.type === "tool-call")
                controller.enqueue({ ...part, toolCallId: rename(part.toolCallId) });
              else if (
                part.type === "tool-input-start" ||
                part.type === "tool-input-delta" ||
                part.type === "tool-input-end"
              ) {
                controller.enqueue({ ...part, id: rename(part.id) });
              } else controller.enqueue(part);
            },
          }),
        ),
      };
    },
  };
}

/** The demo planner (the model asks when a request is ambiguous) on the `call_0` model. */
export const agents = [
  defineAgent({
    name: "planner",
    systemPrompt:
      "You plan work. When a request could be met in several ways and the choice matters, ask first.",
    ask: true,
    model: callZeroModel(),
  }),
];
