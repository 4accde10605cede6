import { logSink } from "../log";

/** The server's log lines while a test captures them, parsed; `restore()` sends them to stderr again. */
export interface CapturedLog {
  /** Every line written since capturing began, as written. */
  lines: string[];
  /** The entry whose `errorId` is `id`, parsed, if one was written. */
  entry(id: string): Record<string, unknown> | undefined;
  /** Writes the lines to standard error again. */
  restore(): void;
}

/** Captures the server's log lines (see `server/log.ts`) instead of writing them. */
export function captureLog(): CapturedLog {
  const lines: string[] = [];
  const write = logSink.write;
  logSink.write = (line) => lines.push(line);
  return {
    lines,
    entry(id) {
      for (const line of lines) {
        const parsed = JSON.parse(line) as Record<string, unknown>;
        if (parsed.errorId === id) return parsed;
      }
      return undefined;
    },
    restore() {
      logSink.write = write;
    },
  };
}
