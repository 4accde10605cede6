/** Where the server's log lines go: standard error, one line each. Tests may replace it. */
export const logSink: { write: (line: string) => void } = {
  write: (line) => console.error(line),
};

/** A new id for an error: what a person's error carries and the log line that explains it. */
export function newErrorId(): string {
  return `err-${crypto.randomUUID()}`;
}

function describe(error: unknown): { error: string; stack?: string; cause?: string } {
  if (!(error instanceof Error)) return { error: String(error) };
  const cause = error.cause instanceof Error ? error.cause : undefined;
  return {
    error: error.message,
    ...(cause ? { cause: cause.message } : {}),
    ...((cause ?? error).stack ? { stack: (cause ?? error).stack } : {}),
  };
}

/**
 * Writes one error to the server log as one JSON line, `{ level, time, event, errorId, …fields,
 * error, cause?, stack? }`, and returns its id. Every text in it (a provider's message, a
 * request's path, a stack) is JSON-escaped, so a newline or a control character in it cannot
 * start a line of its own and pass for another entry.
 */
export function logError(event: string, error: unknown, fields: Record<string, unknown> = {}): string {
  const errorId = newErrorId();
  logSink.write(
    JSON.stringify({
      level: "error",
      time: new Date().toISOString(),
      event,
      errorId,
      ...fields,
      ...describe(error),
    }),
  );
  return errorId;
}
