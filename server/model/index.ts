export { MODEL_ENV, resolveModel } from "./resolve-model";
export {
  answerPrompt,
  createScriptedModel,
  SCRIPTED_MODEL_ID,
  SCRIPTED_PROVIDER,
  ScriptedModel,
  type ScriptedModelOptions,
  type ScriptedTurn,
} from "./scripted-model";
export { AMBIGUOUS_TOPICS, ambiguousTopic, askInputFor } from "./scripted-questions";
export { SCRIPTED_OPTIONS_KEY, SCRIPTED_RULES, type ScriptedRule } from "./scripted-rules";
