import { describe, expect, it } from "vitest";
import { groupCommit } from "./group-commit.ts";

/** A sendBatch whose batches the test ends by hand, in order. */
function heldBatches() {
  const batches: Array<{ items: string[]; end: (results?: string[]) => void; fail: (error: unknown) => void }> = [];
  const sendBatch = (items: readonly string[]) =>
    new Promise<string[]>((resolve, reject) => {
      batches.push({ items: [...items], end: (results) => resolve(results ?? items.map((item) => `done ${item}`)), fail: reject });
    });
  return { batches, sendBatch };
}

const settle = (promise: Promise<unknown>) => promise.then((value) => ({ value }), (error: unknown) => ({ error: (error as Error).message }));
const until = async (check: () => boolean) => {
  while (!check()) await new Promise((resolve) => setImmediate(resolve));
};

describe("groupCommit", () => {
  it("sends the first item at once and the items that come meanwhile together in the next batch", async () => {
    const { batches, sendBatch } = heldBatches();
    const group = groupCommit({ stallMs: 60_000, maxItems: 10, keyOf: (item: string) => item, sendBatch, alone: () => true });
    const first = group.send("a");
    await until(() => batches.length === 1);
    const rest = ["b", "c", "d"].map((item) => group.send(item));
    expect(group.waiting()).toBe(3);
    batches[0].end();
    expect(await first).toBe("done a");
    await until(() => batches.length === 2);
    expect(batches[1].items).toEqual(["b", "c", "d"]);
    batches[1].end();
    expect(await Promise.all(rest)).toEqual(["done b", "done c", "done d"]);
  });

  it("never puts two items of one key in a batch, and no more than maxItems", async () => {
    const { batches, sendBatch } = heldBatches();
    const group = groupCommit({ stallMs: 60_000, maxItems: 2, keyOf: (item: string) => item.split(":")[0], sendBatch, alone: () => true });
    const all = ["t1:a", "t1:b", "t2:a", "t3:a"].map((item) => group.send(item));
    await until(() => batches.length === 1);
    expect(batches[0].items).toEqual(["t1:a", "t2:a"]);
    batches[0].end();
    await until(() => batches.length === 2);
    expect(batches[1].items).toEqual(["t1:b", "t3:a"]);
    batches[1].end();
    expect(await Promise.all(all)).toEqual(["done t1:a", "done t1:b", "done t2:a", "done t3:a"]);
  });

  it("sends a batch that failed on one item's fault again item by item: each gets its own outcome", async () => {
    const sent: string[][] = [];
    const group = groupCommit({
      stallMs: 60_000,
      maxItems: 10,
      keyOf: (item: string) => item,
      sendBatch: async (items: readonly string[]) => {
        sent.push([...items]);
        if (items.includes("bad")) throw Object.assign(new Error("violates a foreign key"), { code: "23503" });
        return items.map((item) => `done ${item}`);
      },
      alone: (error) => (error as { code?: string }).code === "23503",
    });
    const outcomes = await Promise.all(["a", "bad", "c"].map((item) => settle(group.send(item))));
    expect(outcomes).toEqual([{ value: "done a" }, { error: "violates a foreign key" }, { value: "done c" }]);
    expect(sent).toEqual([["a", "bad", "c"], ["a"], ["bad"], ["c"]]);
  });

  it("sends a failed batch's items again one after another while the next batches go; an item's key waits for it", async () => {
    const { batches, sendBatch } = heldBatches();
    let alone = 0;
    const group = groupCommit({ stallMs: 60_000, maxItems: 10, keyOf: (item: string) => item.split(":")[0], sendBatch, alone: () => true, onAlone: (count) => (alone += count) });
    const first = group.send("t1:a");
    const second = group.send("t2:a");
    await until(() => batches.length === 1);
    batches[0].fail(new Error("lock timeout"));
    await until(() => batches.length === 2);
    expect(batches[1].items).toEqual(["t1:a"]);
    expect(alone).toBe(2);
    // t1's item is sent again and waits: another item of t1 waits for it; an item of t3 goes at once.
    const later = group.send("t1:b");
    const other = group.send("t3:a");
    await until(() => batches.length === 3);
    expect(batches[2].items).toEqual(["t3:a"]);
    batches[2].end();
    expect(await other).toBe("done t3:a");
    expect(group.waiting()).toBe(1);
    batches[1].end();
    expect(await first).toBe("done t1:a");
    await until(() => batches.length === 5);
    expect(batches.slice(3).map(({ items }) => items).sort()).toEqual([["t1:b"], ["t2:a"]]);
    for (const batch of batches.slice(3)) batch.end();
    expect([await second, await later]).toEqual(["done t2:a", "done t1:b"]);
  });

  it("fails the whole batch at once on any other error (the database away), then goes on with the next", async () => {
    const { batches, sendBatch } = heldBatches();
    const group = groupCommit({ stallMs: 60_000, maxItems: 10, keyOf: (item: string) => item, sendBatch, alone: () => false });
    const first = settle(group.send("a"));
    await until(() => batches.length === 1);
    const second = settle(group.send("b"));
    const third = settle(group.send("c"));
    batches[0].fail(new Error("connection refused"));
    expect(await first).toEqual({ error: "connection refused" });
    await until(() => batches.length === 2);
    batches[1].fail(new Error("connection refused"));
    expect([await second, await third]).toEqual([{ error: "connection refused" }, { error: "connection refused" }]);
    expect(batches).toHaveLength(2);
    const later = group.send("d");
    await until(() => batches.length === 3);
    batches[2].end();
    expect(await later).toBe("done d");
  });

  it("gives a turn after the batch running now, as long as an item sent now would wait", async () => {
    const { batches, sendBatch } = heldBatches();
    const group = groupCommit({ stallMs: 60_000, maxItems: 10, keyOf: (item: string) => item, sendBatch, alone: () => true });
    await group.turn();
    const first = group.send("a");
    await until(() => batches.length === 1);
    let turned = false;
    const turn = group.turn().then(() => (turned = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(turned).toBe(false);
    batches[0].end();
    await turn;
    expect(await first).toBe("done a");
  });

  it("sends the failed batches' items again through one queue, one at a time; the database away fails the rest at once", async () => {
    const { batches, sendBatch } = heldBatches();
    const group = groupCommit({ stallMs: 60_000, maxItems: 1, keyOf: (item: string) => item, sendBatch, alone: (error) => (error as Error).message === "one item's" });
    const outcomes = ["a", "b", "c"].map((item) => settle(group.send(item)));
    await until(() => batches.length === 1);
    batches[0].fail(new Error("one item's"));
    await until(() => batches.length === 3);
    // a sent again; b's batch goes meanwhile, and fails too: b waits behind a.
    expect(batches.map(({ items }) => items)).toEqual([["a"], ["a"], ["b"]]);
    batches[2].fail(new Error("one item's"));
    await until(() => batches.length === 4);
    expect(batches[3].items).toEqual(["c"]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(batches).toHaveLength(4);
    batches[1].fail(new Error("connection refused"));
    batches[3].end();
    expect(await Promise.all(outcomes)).toEqual([{ error: "connection refused" }, { error: "connection refused" }, { value: "done c" }]);
    expect(batches).toHaveLength(4);
  });

  it("lets the next batch go when one has not ended after stallMs, and gives a turn then", async () => {
    const { batches, sendBatch } = heldBatches();
    const group = groupCommit({ stallMs: 50, maxItems: 10, keyOf: (item: string) => item, sendBatch, alone: () => false });
    const stuck = group.send("stuck");
    await until(() => batches.length === 1);
    const next = group.send("next");
    const started = performance.now();
    await group.turn();
    expect(performance.now() - started).toBeGreaterThanOrEqual(40);
    await until(() => batches.length === 2);
    batches[1].end();
    expect(await next).toBe("done next");
    batches[0].end();
    expect(await stuck).toBe("done stuck");
  });

  it("goes on whatever its callbacks throw", async () => {
    const group = groupCommit({
      stallMs: 60_000,
      maxItems: 10,
      keyOf: (item: string) => item,
      sendBatch: async (items: readonly string[]) => {
        if (items.length > 1) throw new Error("many");
        return items.map((item) => `done ${item}`);
      },
      alone: () => {
        throw new Error("a broken check");
      },
      onBatch: () => {
        throw new Error("a broken metric");
      },
    });
    expect(await Promise.all(["a", "b"].map((item) => settle(group.send(item))))).toEqual([{ error: "many" }, { error: "many" }]);
    expect(await group.send("c")).toBe("done c");
  });

  it("refuses a batch whose results do not match its items", async () => {
    const group = groupCommit({ stallMs: 60_000, maxItems: 10, keyOf: (item: string) => item, sendBatch: async () => [], alone: () => false });
    expect(await settle(group.send("a"))).toEqual({ error: "a batch of 1 items had 0 results" });
  });
});
