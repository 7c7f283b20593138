import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import type { Metric } from "./metrics.ts";
import { readLabels, readPredictions, type Labels } from "./parse.server.ts";
import { scorePredictions, splitOf } from "./score.server.ts";

const csv = (text: string) => Readable.from([Buffer.from(text)]);

async function labelsOf(text: string, metric: Metric): Promise<Labels> {
  const read = await readLabels(csv(text), metric);
  if (!read.ok) throw new Error(JSON.stringify(read.faults));
  return read.value;
}

describe("a prediction challenge's labels", () => {
  it("are read with whole-number ids and with any other ids, classes coded in order of appearance", async () => {
    const dense = await labelsOf("id,label\n1,cat\n2,dog\n3,cat\n", "accuracy");
    expect(dense.rows).toBe(3);
    expect(dense.classes).toEqual(["cat", "dog"]);
    expect(dense.index.rowOf("2")).toBe(1);
    expect(dense.index.rowOf("02")).toBe(-1);
    const named = await labelsOf("\uFEFFkey,y\r\na-1,1.5\r\n\"b,2\",-2e1\r\n", "rmse");
    expect(named.index.rowOf("b,2")).toBe(1);
    expect([...named.numbers!]).toEqual([1.5, -20]);
    // Whole numbers far apart (no dense table): still found.
    const sparse = await labelsOf("id,y\n5,1\n900000000,0\n", "roc_auc");
    expect(sparse.index.rowOf("900000000")).toBe(1);
  });

  it("are refused with the lines at fault: a duplicate id (both lines), a bad number, a ROC AUC label other than 0 or 1", async () => {
    const duplicate = await readLabels(csv("id,y\n1,2\n2,3\n1,4\n"), "mae");
    expect(duplicate).toMatchObject({ ok: false, faults: { first: [{ code: "duplicateId", line: 4, value: "1", other: 2 }] } });
    const named = await readLabels(csv("id,y\nx,2\nx,3\n"), "mae");
    expect(named).toMatchObject({ ok: false, faults: { first: [{ code: "duplicateId", line: 3, other: 2 }] } });
    const bad = await readLabels(csv("id,y\n1,2\n2,abc\n3,0x10\n"), "rmse");
    expect(bad).toMatchObject({ ok: false, faults: { count: 2, first: [{ code: "badNumber", line: 3 }, { code: "badNumber", line: 4 }] } });
    const binary = await readLabels(csv("id,y\n1,1\n2,2\n"), "roc_auc");
    expect(binary).toMatchObject({ ok: false, faults: { first: [{ code: "badBinary", line: 3, value: "2" }] } });
    expect(await readLabels(csv(""), "mae")).toMatchObject({ ok: false, faults: { first: [{ code: "noRows" }] } });
    const header = await readLabels(csv("id\n1\n"), "mae");
    expect(!header.ok && header.faults.first[0]).toMatchObject({ code: "header", line: 1 });
  });
});

describe("a team's predictions", () => {
  it("are read in the labels' row order whatever their order and the columns' order", async () => {
    const labels = await labelsOf("id,label\n1,cat\n2,dog\n3,cat\n", "accuracy");
    const read = await readPredictions(csv("label,id\ndog,2\ncat,3\ndog,1\n"), labels);
    expect(read.ok && [...read.value.codes!]).toEqual([1, 1, 0]);
  });

  it("name the first lines at fault: unknown, duplicate and empty ids, bad numbers, a line of three cells", async () => {
    const labels = await labelsOf("id,y\n1,0.5\n2,1.5\n3,2\n", "rmse");
    const read = await readPredictions(csv("id,y\n1,0.5\n7,1\n1,2\n2,NaN\n3,1,9\n,4\n"), labels);
    expect(read).toMatchObject({
      ok: false,
      faults: {
        count: 5,
        first: [
          { code: "unknownId", line: 3, value: "7" },
          { code: "duplicateId", line: 4, value: "1", other: 2 },
          { code: "badNumber", line: 5, value: "NaN" },
          { code: "columnCount", line: 6 },
          { code: "emptyId", line: 7 },
        ],
      },
    });
  });

  it("name the missing ids when nothing else is wrong, and a header that is not the labels'", async () => {
    const labels = await labelsOf("id,y\n1,0\n2,1\n3,1\n4,0\n5,1\n", "roc_auc");
    expect(await readPredictions(csv("id,y\n2,0.3\n"), labels)).toMatchObject({
      ok: false,
      faults: { first: [{ code: "missingIds", value: "1, 3, 4", other: 4 }] },
    });
    expect(await readPredictions(csv("id,score\n1,0.3\n"), labels)).toMatchObject({ ok: false, faults: { first: [{ code: "header", line: 1, value: "id,y" }] } });
    expect(await readPredictions(csv("id,y\n1,\"0.3\n"), labels)).toMatchObject({ ok: false, faults: { first: [{ code: "unreadable" }] } });
  });

  it("refuse a class the labels do not have", async () => {
    const labels = await labelsOf("id,label\n1,cat\n2,dog\n", "macro_f1");
    expect(await readPredictions(csv("id,label\n1,cat\n2,bird\n"), labels)).toMatchObject({ ok: false, faults: { first: [{ code: "badClass", line: 3, value: "bird" }] } });
  });

  it("are scored on the public and the private rows apart", async () => {
    const labels = await labelsOf("id,y\n1,1\n2,2\n3,3\n4,4\n", "mae");
    const read = await readPredictions(csv("id,y\n1,1\n2,2\n3,5\n4,6\n"), labels);
    if (!read.ok) throw new Error("unread");
    const split = { publicMarks: Uint8Array.from([1, 1, 0, 0]), privateMarks: Uint8Array.from([0, 0, 1, 1]) };
    expect(scorePredictions(labels, read.value, split)).toEqual({ publicScore: 0, privateScore: 2 });
    expect(splitOf(4, 50, "ab".repeat(32)).publicMarks.reduce((a, b) => a + b, 0)).toBe(2);
  });
});
