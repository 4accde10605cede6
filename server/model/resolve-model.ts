import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModelV4 } from "@ai-sdk/provider";
import { createScriptedModel, type ScriptedModelOptions } from "./scripted-model";

/** The environment variables that choose the model. */
export const MODEL_ENV = {
  /** The OpenAI-compatible API's base URL, e.g. `https://api.openai.com/v1` or `http://127.0.0.1:11434/v1`. */
  baseUrl: "PREPICK_MODEL_BASE_URL",
  /** The bearer token; optional, since local servers such as Ollama and vLLM take none. */
  apiKey: "PREPICK_MODEL_API_KEY",
  /** The model's id at that API, e.g. `gpt-4o-mini` or `llama3.1`. */
  modelId: "PREPICK_MODEL_ID",
} as const;

type Env = Record<string, string | undefined>;

const read = (env: Env, name: string) => {
  const value = env[name]?.trim();
  return value === undefined || value === "" ? undefined : value;
};

/**
 * The model the server uses when an agent declares none: the embedded scripted model by
 * default, or an OpenAI-compatible API (OpenAI, Ollama, vLLM…) when `PREPICK_MODEL_BASE_URL`
 * is set, with `PREPICK_MODEL_ID` and, when the API needs one, `PREPICK_MODEL_API_KEY`.
 * Throws, naming the variable, when the settings are incomplete or malformed. `scripted` shapes
 * the scripted model, when that is the one.
 */
export function resolveModel(env: Env = process.env, scripted: ScriptedModelOptions = {}): LanguageModelV4 {
  const baseURL = read(env, MODEL_ENV.baseUrl);
  const apiKey = read(env, MODEL_ENV.apiKey);
  const modelId = read(env, MODEL_ENV.modelId);
  if (baseURL === undefined) {
    // A half-configured real model silently falling back to the scripted one would be confusing.
    const stray = [MODEL_ENV.modelId, MODEL_ENV.apiKey].find((name) => read(env, name) !== undefined);
    if (stray) throw new Error(`${stray} is set but ${MODEL_ENV.baseUrl} is not: set both, or neither`);
    return createScriptedModel(scripted);
  }
  if (!URL.canParse(baseURL) || !/^https?:$/.test(new URL(baseURL).protocol)) {
    throw new Error(`${MODEL_ENV.baseUrl} must be an http(s) URL, not ${JSON.stringify(baseURL)}`);
  }
  if (modelId === undefined) {
    throw new Error(`${MODEL_ENV.modelId} must name the model when ${MODEL_ENV.baseUrl} is set`);
  }
  const provider = createOpenAICompatible({
    name: "prepick-model",
    baseURL,
    ...(apiKey !== undefined ? { apiKey } : {}),
    includeUsage: true,
  });
  return provider.chatModel(modelId);
}
