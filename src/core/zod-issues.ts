import type { z } from "zod";
import type { DefinitionIssue } from "./check-questions";

/** Writes a path the way a person reads it: `questions[0].options[1].value`. */
export function formatPath(path: readonly PropertyKey[]): string {
  return path
    .map((key, index) => (typeof key === "number" ? `[${key}]` : `${index === 0 ? "" : "."}${String(key)}`))
    .join("");
}

/** Turns a zod error into definition issues, one sentence each, naming the field. */
export function zodIssues(error: z.ZodError): DefinitionIssue[] {
  return error.issues.map((issue) => {
    const path = formatPath(issue.path);
    return { path, message: path ? `${path}: ${issue.message}` : issue.message };
  });
}
