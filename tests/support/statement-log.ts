import type { Frame } from "prepick/core";
import type { Database, Queryable } from "prepick/server";
import { chatBody, lastSeq } from "./agent-api";
import { endsStream, readFrames } from "./sse";

/**
 * What each statement the store sends does, recognised by its text: the first pattern that
 * matches names it. A statement no pattern knows is named by its first words, so a new one shows
 * up in a count rather than hiding.
 */
const NAMES: readonly [RegExp, string][] = [
  [/^BEGIN/, "BEGIN"],
  [/^COMMIT/, "COMMIT"],
  [/lease_until < now\(\)/, "hand expired leases back (per process, every half second)"],
  [/jsonb_array_elements_text\(\$3::jsonb\)/, "renew this process's leases (per process)"],
  [
    /INSERT INTO prepick_threads[\s\S]*INSERT INTO prepick_runs/,
    "start the run: thread, checks, run, persist:run:start and its frame",
  ],
  [/FROM prepick_threads WHERE id = \$1 FOR UPDATE/, "lock the thread"],
  [/^INSERT INTO prepick_threads/, "insert the thread"],
  [/^SELECT \* FROM prepick_threads WHERE id = \$1$/, "read the thread"],
  [/^SELECT id FROM prepick_runs WHERE thread_id = \$1 AND status IN/, "read the thread's active run"],
  [/WITH started AS \(\s*INSERT INTO prepick_runs/, "insert the run"],
  [/^SELECT \* FROM prepick_tool_calls WHERE id = \$1$/, "read the pending row"],
  [/settled AS \(/, "settle the row, record the signal and its frame, claim the run"],
  [/FROM prepick_runs WHERE status = 'ready'[\s\S]*FOR UPDATE SKIP LOCKED/, "claim ready runs"],
  [/finished AS \(/, "finish the run, with its run-finish frame"],
  [/changed AS \(/, "park the run, with its run-parked frame"],
  [/INSERT INTO prepick_checkpoints/, "record a checkpoint"],
  [/frame->>'kind' = 'step-start'/, "read the unfinished model call's frames"],
  [/INSERT INTO prepick_frames/, "append frames"],
  [/AS last_seq/, "read the stream's tail"],
  [/WITH ORDINALITY AS item\(frame, ordinality\)\s+WHERE f\.run_id = \$1/, "read frames"],
  [/FROM prepick_runs WHERE thread_id = \$1 ORDER BY turn/, "read the thread's earlier turns"],
];

/** Per-process background statements: the same whatever a process runs, so not counted per run. */
const BACKGROUND = new Set(NAMES.slice(2, 4).map(([, name]) => name));

/** The name of one statement, with what a checkpoint records and how many frames it writes. */
export function statementName(sql: string, params: readonly unknown[] = []): string {
  const text = sql.trim();
  const known = NAMES.find(([pattern]) => pattern.test(text))?.[1];
  if (known === "record a checkpoint") {
    const names = parsedNames(params[1]);
    const frames = parsedLength(params[2]);
    const finishes = params[7] === true;
    return `record ${names.join(", ")}${frames > 0 ? `, with ${frames} frames` : ""}${finishes ? ", finishing the run" : ""}`;
  }
  if (known === "append frames") return `append ${parsedLength(params[1])} frames`;
  return known ?? text.replace(/\s+/g, " ").slice(0, 60);
}

function parsedNames(param: unknown): string[] {
  try {
    return (JSON.parse(String(param)) as { name: string }[]).map((entry) => entry.name);
  } catch {
    return ["?"];
  }
}

function parsedLength(param: unknown): number {
  try {
    const value = JSON.parse(String(param)) as unknown;
    return Array.isArray(value) ? value.length : 0;
  } catch {
    return 0;
  }
}

/** A database that names every statement sent through it, in order, background ones apart. */
export interface StatementLog {
  /** The database to hand the server. */
  db: Database;
  /** The statements named since the last `clear`, background ones left out. */
  names(): string[];
  /** Forgets what was logged. */
  clear(): void;
}

/** Wraps `db` so every statement (a transaction's BEGIN and COMMIT too) is named in order. */
export function statementLog(db: Database): StatementLog {
  let log: string[] = [];
  const note = (sql: string, params: readonly unknown[]) => {
    const name = statementName(sql, params);
    if (!BACKGROUND.has(name)) log.push(name);
  };
  const noting = (target: Queryable): Queryable => ({
    query: (sql, params = []) => {
      note(sql, params);
      return target.query(sql, params);
    },
  });
  const wrapped: Database = {
    kind: db.kind,
    query: (sql, params = []) => {
      note(sql, params);
      return db.query(sql, params);
    },
    transaction: (work) =>
      db.transaction(async (tx) => {
        log.push("BEGIN");
        const result = await work(noting(tx));
        log.push("COMMIT");
        return result;
      }),
    listen: (channel, onNotify) => db.listen(channel, onNotify),
    notify: (channel, payload) => db.notify(channel, payload),
    close: () => db.close(),
  };
  return {
    db: wrapped,
    names: () => [...log],
    clear: () => {
      log = [];
    },
  };
}

/** An actor's requests to a server, for counting what one run costs. */
interface Counted {
  /** The server's base URL. */
  url: string;
  /** The log of the database the server was given. */
  log: StatementLog;
  /** Who acts. */
  actor: string;
}

function send(url: string, actor: string, path: string, body: unknown): Promise<Response> {
  return fetch(`${url}${path}`, {
    method: "POST",
    headers: { "x-actor-id": actor, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

/**
 * The statements of one started run of the planner (one model call), its chat's stream read to
 * the end; a first run warms the process (its first claim) and is not counted. Fails when the
 * run does not finish.
 */
export async function statementsOfStartedRun({ url, log, actor }: Counted): Promise<string[]> {
  const chat = () => send(url, actor, "/agent/chat", chatBody("planner", "Say hello"));
  await readFrames(await chat());
  log.clear();
  const frames = await readFrames(await chat());
  if (frames.at(-1)?.frame.kind !== "run-finish") throw new Error("the started run did not finish");
  return log.names();
}

/**
 * The statements of one answered intake run, from the answer to the run's finish, while the
 * person's stream follows the run (opened before the answer, its own first reads not counted).
 */
export async function statementsOfAnsweredRun({ url, log, actor }: Counted): Promise<string[]> {
  const chat = await send(url, actor, "/agent/chat", chatBody("refactorer", "Refactor the parser"));
  const parked = await readFrames(chat, { until: endsStream });
  const runId = chat.headers.get("x-run-id") ?? "";
  if (parked.at(-1)?.frame.kind !== "run-parked") throw new Error("the intake run did not park");
  const following = await fetch(
    `${url}/agent/runs/${encodeURIComponent(runId)}/stream?after=${lastSeq(parked) - 1}&follow=all`,
    { headers: { "x-actor-id": actor } },
  );
  let parkSeen: () => void = () => undefined;
  const seen = new Promise<void>((resolve) => {
    parkSeen = resolve;
  });
  const rest = readFrames(following, {
    until: (frame: Frame) => {
      if (frame.kind === "run-parked") parkSeen();
      return frame.kind === "run-finish";
    },
  });
  await seen;
  log.clear();
  const answer = await send(url, actor, "/agent/tool-call/answer", { toolCallId: `intake-${runId}` });
  if (answer.status !== 200) throw new Error(`the answer got ${answer.status}`);
  if ((await rest).at(-1)?.frame.kind !== "run-finish") throw new Error("the answered run did not finish");
  return log.names();
}
