import type { Message, ResumeEntry, RunAgentInput } from "@ag-ui/core";
import { RunAgentInputSchema } from "@ag-ui/core/schemas";
import type { UserMessage } from "../../store/rows";
import { CLIENT_ID } from "../start-turn";

/** A `RunAgentInput` read for the server: its ids, the person's last message, and its resume entries. */
export interface AgUiRunInput {
  /** The input as `@ag-ui/core` parsed it. */
  input: RunAgentInput;
  /** The last message when it is the person's, as our user message. */
  lastUserMessage?: UserMessage;
  /** The resume entries, in order; empty when the input starts a run. */
  resume: ResumeEntry[];
}

/** An input refused, with the field, the rule and the value in one sentence. */
export interface InputRefusal {
  /** The sentence. */
  error: string;
  /** Where in the input. */
  path: string;
}

/** Writes a path the way a person reads it: `resume[0].status`. */
function formatPath(path: readonly PropertyKey[]): string {
  return path
    .map((key, index) => (typeof key === "number" ? `[${key}]` : `${index === 0 ? "" : "."}${String(key)}`))
    .join("");
}

function valueAt(body: unknown, path: readonly PropertyKey[]): unknown {
  let value = body;
  for (const key of path) {
    if (typeof value !== "object" || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function shown(value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) return "nothing";
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function refuse(path: string, rule: string, value?: unknown): { ok: false; refusal: InputRefusal } {
  return {
    ok: false,
    refusal: { path, error: `${path} ${rule}${value === undefined ? "" : `, not ${shown(value)}`}` },
  };
}

/** The text of a user message (a string, or text parts: any other part is refused), or a refusal. */
function userText(
  message: Message,
  path: string,
): { ok: true; text: string } | { ok: false; refusal: InputRefusal } {
  if (message.role !== "user")
    return refuse(`${path}.role`, 'must be "user": a run starts from the person\'s message', message.role);
  if (typeof message.content === "string") return { ok: true, text: message.content };
  const texts: string[] = [];
  for (const [index, part] of message.content.entries()) {
    if (part.type !== "text") {
      return refuse(
        `${path}.content[${index}].type`,
        'must be "text": this server reads text only',
        part.type,
      );
    }
    texts.push(part.text);
  }
  return { ok: true, text: texts.join("\n") };
}

/**
 * Reads a request body as a `RunAgentInput` with `@ag-ui/core`'s own schema, then with the
 * server's rules: thread and message ids as `/agent/chat` takes them, the last message (when it
 * is the person's) text only, resume entries naming distinct interrupts. A run that resumes
 * nothing must end with the person's message. Unknown fields are stripped, as the schema does.
 */
export function readRunInput(
  body: unknown,
): { ok: true; value: AgUiRunInput } | { ok: false; refusal: InputRefusal } {
  const parsed = RunAgentInputSchema.safeParse(body);
  if (!parsed.success) {
    const [issue] = parsed.error.issues;
    const path = formatPath(issue?.path ?? []) || "the body";
    const value = valueAt(body, issue?.path ?? []);
    return refuse(path, `is refused: ${issue?.message ?? "not a RunAgentInput"}`, value);
  }
  const input = parsed.data as RunAgentInput;
  if (!CLIENT_ID.test(input.threadId)) {
    return refuse("threadId", "must be 1 to 200 letters, digits or . _ : -", input.threadId);
  }
  const resume = input.resume ?? [];
  const seen = new Map<string, number>();
  for (const [index, entry] of resume.entries()) {
    const first = seen.get(entry.interruptId);
    if (first !== undefined) {
      return refuse(
        `resume[${index}].interruptId`,
        `repeats resume[${first}]: answer each interrupt once`,
        entry.interruptId,
      );
    }
    seen.set(entry.interruptId, index);
  }
  const lastIndex = input.messages.length - 1;
  const last = input.messages[lastIndex];
  if (last?.role !== "user") {
    if (resume.length > 0) return { ok: true, value: { input, resume } };
    return refuse(
      lastIndex < 0 ? "messages" : `messages[${lastIndex}].role`,
      lastIndex < 0
        ? "must end with the person's message: a run that resumes nothing starts from one"
        : 'must be "user": a run that resumes nothing starts from the person\'s message',
      lastIndex < 0 ? undefined : last?.role,
    );
  }
  const path = `messages[${lastIndex}]`;
  if (!CLIENT_ID.test(last.id))
    return refuse(`${path}.id`, "must be 1 to 200 letters, digits or . _ : -", last.id);
  const text = userText(last, path);
  if (!text.ok) return text;
  const lastUserMessage: UserMessage = {
    id: last.id,
    role: "user",
    parts: [{ type: "text", text: text.text }],
  };
  return { ok: true, value: { input, resume, lastUserMessage } };
}
