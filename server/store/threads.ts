import type { Database } from "../database/database";
import { toThread } from "./read-rows";
import type { ThreadRow } from "./rows";

/** The threads: one actor's conversation with one agent. `RunStore.start` creates them. */
export class ThreadStore {
  /** @param db The store's database. */
  constructor(private readonly db: Database) {}

  /** A thread by id. */
  async get(threadId: string): Promise<ThreadRow | undefined> {
    const rows = await this.db.query("SELECT * FROM prepick_threads WHERE id = $1", [threadId]);
    return rows[0] ? toThread(rows[0]) : undefined;
  }
}
