/**
 * Ids in the order they joined a set, read from the newest end: what lets the memory store answer
 * "the newest n" by visiting about n ids, where a `Map` can only be walked from its oldest entry.
 * A leaving id stays behind as a stale entry (so leaving costs nothing) until stale entries
 * outnumber live ones; then the list is rebuilt from the live ones, which spreads the rebuild
 * over the leaves that made it necessary. An id that leaves and joins again is listed twice:
 * the later entry is its place (reads skip the earlier).
 *
 * A member's position (`join`, `positionOf`) orders it among the others as their joining did: a
 * later joiner has a greater one. A rebuild renumbers every member (`leave`'s `moved`), so a
 * position kept outside stays comparable only when its keeper follows those moves.
 */
export class InsertionOrder {
  private ids: string[] = [];
  private stale = 0;

  /** How many ids are in the set. */
  get size(): number {
    return this.ids.length - this.stale;
  }

  /** The position past every member's: where the next id to join will be. */
  get end(): number {
    return this.ids.length;
  }

  /** Adds `id` as the newest member; returns its position. */
  join(id: string): number {
    return this.ids.push(id) - 1;
  }

  /**
   * The position of the member `id` (its latest entry), searched from the newest end: a member
   * that joined moments ago is found in a few steps, one that joined first only after every entry.
   */
  positionOf(id: string): number {
    return this.ids.lastIndexOf(id);
  }

  /**
   * `id` left the set; `isMember` tells which ids still are members (used when rebuilding), and
   * `moved` is told each member's new position when a rebuild renumbers them. Returns whether it
   * rebuilt.
   */
  leave(isMember: (id: string) => boolean, moved?: (id: string, position: number) => void): boolean {
    this.stale += 1;
    if (this.stale <= this.ids.length / 2 + 16) return false;
    this.rebuild(isMember, moved);
    return true;
  }

  /**
   * Members in order of joining, newest first, for as long as `visit` returns true. `isMember`
   * tells the live ids from the stale entries; an id is visited once, at its latest entry.
   */
  newestFirst(isMember: (id: string) => boolean, visit: (id: string) => boolean): void {
    const seen = new Set<string>();
    for (let i = this.ids.length - 1; i >= 0; i -= 1) {
      const id = this.ids[i] as string;
      if (seen.has(id) || !isMember(id)) continue;
      seen.add(id);
      if (!visit(id)) return;
    }
  }

  private rebuild(isMember: (id: string) => boolean, moved: ((id: string, position: number) => void) | undefined): void {
    const live: string[] = [];
    this.newestFirst(isMember, (id) => {
      live.push(id);
      return true;
    });
    this.ids = live.reverse();
    this.stale = 0;
    if (moved) this.ids.forEach((id, position) => moved(id, position));
  }
}
