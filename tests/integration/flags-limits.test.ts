/** The wait rule of wrong answers, gk_flag_next_guess_at (migration 0024; docs/domain.md "Guessing has a price"), in real Postgres. */
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../app/infrastructure/db.server.ts";

const at = (seconds: number) => new Date(1_000_000_000 + seconds * 1000);

async function nextGuessAt(recent: Date[], wrong: number, limit: number): Promise<Date | null> {
  const list = `{${recent.map((time) => `"${time.toISOString()}"`).join(",")}}`;
  const [row] = await getDb().execute<{ next_at: Date | string | null }>(sql`select gk_flag_next_guess_at(${wrong}::int, ${list}::timestamptz[], ${limit}::int) as next_at`);
  return row.next_at === null ? null : new Date(row.next_at);
}

describe("the wait after wrong answers", () => {
  it("lets `limit` wrong answers through a minute, then waits for the oldest of them to be a minute old", async () => {
    expect(await nextGuessAt([at(2), at(1)], 2, 3)).toBeNull();
    expect(await nextGuessAt([at(3), at(2), at(1)], 3, 3)).toEqual(at(61));
    // Fewer times kept than the limit (the limit was raised since): no wait until they fill.
    expect(await nextGuessAt([at(3), at(2)], 7, 3)).toBeNull();
  });

  it("doubles the window with every further `limit` wrong answers, to 32 minutes at most", async () => {
    const windows = await Promise.all([3, 5, 6, 9, 12, 300].map(async (count) => ((await nextGuessAt([at(3), at(2), at(0)], count, 3))!.getTime() - at(0).getTime()) / 60_000));
    expect(windows).toEqual([1, 1, 2, 4, 8, 32]);
    expect(await nextGuessAt([at(10), at(9), at(8)], 6, 3)).toEqual(at(128));
  });
});
