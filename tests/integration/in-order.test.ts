/**
 * db/in-order.ts: statements sent together run in the order given, each after the one before has ended, and
 * go out in one write.
 */
import { Socket } from "node:net";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "../../db/client.ts";
import { commitOf, rowsOf, sendInOrder, TransactionRolledBackError } from "../../db/in-order.ts";

describe("sendInOrder", () => {
  it("runs the statements in the order given, in one round trip, each settling on its own", async () => {
    const handle = createDb(process.env.DATABASE_URL!, { max: 1 });
    // Each appends its number to a setting of the transaction: the last one reads the order they ran in.
    const step = (n: number) => sql`select set_config('gk.order', coalesce(current_setting('gk.order', true), '') || ${`,${n}`}, true) as so_far`;
    const statements = [...Array.from({ length: 12 }, (_, n) => step(n)), sql`select ${"no such"}::int as broken`, step(12)];
    const run = () => handle.db.transaction((tx) => sendInOrder(tx, statements)).catch((error: unknown) => error);
    try {
      // Once first: a statement's first run prepares it (round trips of its own).
      await run();
      const writes: Buffer[] = [];
      const write = Socket.prototype.write;
      Socket.prototype.write = function (this: Socket, ...args: Parameters<Socket["write"]>) {
        if (Buffer.isBuffer(args[0])) writes.push(args[0]);
        return write.apply(this, args);
      } as Socket["write"];
      let results: PromiseSettledResult<Record<string, unknown>[]>[] = [];
      try {
        results = await handle.db.transaction(async (tx) => {
          const settled = await sendInOrder(tx, statements.slice(0, 12));
          return settled;
        });
      } finally {
        Socket.prototype.write = write;
      }
      expect(rowsOf(results[11])[0].so_far).toBe(",0,1,2,3,4,5,6,7,8,9,10,11");
      // BEGIN (a round trip of its own: postgres.js as published, docs/decisions/037), the twelve statements in
      // one write, then COMMIT.
      expect(writes).toHaveLength(3);

      // A failing statement fails alone in its result; those after it fail as Postgres refuses them in a failed transaction.
      const failed = await handle.db.transaction(async (tx) => {
        const settled = await sendInOrder(tx, statements);
        expect(settled.slice(0, 12).every((result) => result.status === "fulfilled")).toBe(true);
        expect(settled[12].status).toBe("rejected");
        expect(settled[13].status).toBe("rejected");
        return "rolled back";
      }).catch((error: { code?: string; cause?: { code?: string } }) => error.cause?.code ?? error.code);
      // postgres.js rolls back a transaction in which a statement failed: the invalid input's error.
      expect(failed).toBe("22P02");
    } finally {
      await handle.close();
    }
  });

  it("commitOf: a COMMIT sent after a statement that failed is Postgres's ROLLBACK, and says so, even when that failure goes unread", async () => {
    const handle = createDb(process.env.DATABASE_URL!, { max: 1 });
    try {
      const outcome = (first: ReturnType<typeof sql>) =>
        handle.db
          .transaction(async (tx) => {
            const [, commit] = await sendInOrder(tx, [first, sql`commit`, sql`begin`]);
            commitOf(commit);
            return "committed";
          })
          .catch((error: unknown) => (error instanceof TransactionRolledBackError ? "rolled back" : "other error"));
      // Unchecked, the callback would go on as if committed (postgres.js throws the division's error only once
      // the callback has ended: "other error"), and a caller's flag set after the COMMIT would be wrong.
      expect(await outcome(sql`select 1 as ok`)).toBe("committed");
      expect(await outcome(sql`select 1 / 0 as broken`)).toBe("rolled back");
    } finally {
      await handle.close();
    }
  });
});
