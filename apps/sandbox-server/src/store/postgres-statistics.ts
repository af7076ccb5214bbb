import type pg from 'pg';

/** Committed transactions before the first `ANALYZE`, doubled each time the table still had nothing to analyze. */
export const FIRST_ANALYZE_AFTER = 200;

/**
 * Gives a new `records` table its first planner statistics, once. PostgreSQL plans a query from
 * the statistics `ANALYZE` collects, and a table that was never analyzed has none: without them it
 * takes `merchant_id = … AND kind = …` to match about one row, prices the primary key
 * `(merchant_id, kind, id)` and `records_by_kind (merchant_id, kind, seq)` alike for a lookup by
 * id, and may pick the second, which reads every record of that kind of the merchant to find one
 * (measured on a fresh schema with pg_stat_statements: 6.5 ms a customer insert after 15 s of
 * load, against 0.25 ms analyzed; docs/scaling.md). Autovacuum analyzes a table only after its
 * launcher visits the database, at most once a minute by default (`autovacuum_naptime`), and only
 * where it is enabled; a fresh schema under a CI fleet's load gets slower with every record until
 * then. Once the table has statistics, `id`'s are kept as a fraction of the rows (every id
 * distinct), so the plan stays right however much the table grows, and autovacuum keeps them
 * fresh from there.
 */
export class FirstStatistics {
  private untilNext = FIRST_ANALYZE_AFTER;
  private every = FIRST_ANALYZE_AFTER;
  private running = false;

  private constructor(
    private readonly pool: pg.Pool,
    private done: boolean,
  ) {}

  static async of(pool: pg.Pool): Promise<FirstStatistics> {
    return new FirstStatistics(pool, await FirstStatistics.present(pool));
  }

  /** True when `records` has statistics for `id` (any of its columns would do: ANALYZE takes all). */
  private static async present(pool: pg.Pool): Promise<boolean> {
    const r = await pool.query<{ present: boolean }>(
      "SELECT EXISTS (SELECT 1 FROM pg_stats WHERE schemaname = current_schema() AND tablename = 'records' AND attname = 'id') AS present",
    );
    return r.rows[0]?.present === true;
  }

  /**
   * Counts a committed transaction; the one that reaches the threshold analyzes the table before
   * it returns (tens of milliseconds on a few hundred rows, once per process), so the requests
   * after it are planned with statistics. `ANALYZE` takes a lock that writes do not wait for.
   */
  async committed(): Promise<void> {
    if (this.done || this.running) return;
    this.untilNext -= 1;
    if (this.untilNext > 0) return;
    this.running = true;
    try {
      await this.pool.query('ANALYZE records');
      this.done = await FirstStatistics.present(this.pool);
    } catch {
      // A role that may not analyze the table leaves it to autovacuum, as before: requests still
      // succeed, only slower until then.
    } finally {
      this.running = false;
      this.every *= 2;
      this.untilNext = this.every;
    }
  }
}
