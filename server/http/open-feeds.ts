/**
 * How many inbox feeds each actor holds open in this process, up to a cap: every feed reads the
 * store for its actor and keeps a connection, so one actor opening hundreds would take both from
 * everyone else.
 */
export class OpenFeeds {
  private readonly open = new Map<string, number>();

  /** @param max The most feeds one actor may hold open here at once. */
  constructor(readonly max: number) {}

  /** Takes a place for a new feed of `actorId`; false when it already holds `max`. */
  take(actorId: string): boolean {
    const held = this.open.get(actorId) ?? 0;
    if (held >= this.max) return false;
    this.open.set(actorId, held + 1);
    return true;
  }

  /** Gives back the place of a feed that ended. */
  give(actorId: string): void {
    const held = (this.open.get(actorId) ?? 1) - 1;
    if (held <= 0) this.open.delete(actorId);
    else this.open.set(actorId, held);
  }
}
