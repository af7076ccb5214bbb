import type { JournalEntry, ListRequestsQuery } from '@switchyard/contract';

/**
 * Entries kept across all merchants: past it, the journal of the merchant idle longest is
 * forgotten. With bodies capped at 8 KiB each this bounds the journal's memory whatever the
 * number of merchants (docs/sandbox-testing.md, "Request journal").
 */
export const JOURNAL_TOTAL_ENTRIES = 10_000;
const DEFAULT_LIST_LIMIT = 100;

/** A fixed-size ring: `push` overwrites the oldest entry once it is full. */
class Ring {
  private readonly entries: JournalEntry[] = [];
  private next = 0;

  constructor(private readonly size: number) {}

  get length(): number {
    return this.entries.length;
  }

  push(entry: JournalEntry): void {
    if (this.entries.length < this.size) this.entries.push(entry);
    else this.entries[this.next] = entry;
    this.next = (this.next + 1) % this.size;
  }

  /** Oldest first. */
  ordered(): JournalEntry[] {
    return this.entries.length < this.size ? [...this.entries] : [...this.entries.slice(this.next), ...this.entries.slice(0, this.next)];
  }
}

/**
 * The request journal (`GET /sandbox/requests`): each merchant's last `size` requests, in this
 * process's memory. Memory is bounded: `size` entries per merchant (each body capped by the
 * recorder), and at most `totalEntries` in all. A size of 0 keeps nothing.
 */
export class RequestJournal {
  /** Map order is recency order: a merchant's ring moves to the end on every request. */
  private readonly rings = new Map<string, Ring>();
  private total = 0;

  constructor(
    readonly size: number,
    private readonly totalEntries = JOURNAL_TOTAL_ENTRIES,
  ) {}

  get enabled(): boolean {
    return this.size > 0;
  }

  record(merchantId: string, entry: JournalEntry): void {
    if (!this.enabled) return;
    let ring = this.rings.get(merchantId);
    if (ring) this.rings.delete(merchantId);
    else ring = new Ring(this.size);
    this.rings.set(merchantId, ring);
    const before = ring.length;
    ring.push(entry);
    this.total += ring.length - before;
    // The first ring in the map is the one idle longest; the current merchant's is the last. Only
    // a growing ring adds to the total, by one, so one entry forgets at most one other journal, and
    // a merchant's flood at most those its own ring needed room from (docs/sandbox-testing.md, "Request journal").
    for (const [id, idle] of this.rings) {
      if (this.total <= this.totalEntries || id === merchantId) break;
      this.rings.delete(id);
      this.total -= idle.length;
    }
  }

  /** The most recent `limit` entries matching the query, oldest first. */
  list(merchantId: string, query: ListRequestsQuery): JournalEntry[] {
    const since = query.since === undefined ? -Infinity : Date.parse(query.since);
    const until = query.until === undefined ? Infinity : Date.parse(query.until);
    const matching = (this.rings.get(merchantId)?.ordered() ?? []).filter((e) => {
      const at = Date.parse(e.at);
      return (query.operation_id === undefined || e.operation_id === query.operation_id) && (query.status === undefined || e.status === query.status) && at >= since && at < until;
    });
    return matching.slice(-(query.limit ?? DEFAULT_LIST_LIMIT));
  }

  clear(merchantId: string): void {
    this.total -= this.rings.get(merchantId)?.length ?? 0;
    this.rings.delete(merchantId);
  }
}
