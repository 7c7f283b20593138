/**
 * Reading a prediction challenge's labels and a team's predictions (docs/domain.md "Prediction challenges"): CSV
 * streamed through ./csv.server.ts (RFC 4180 quoting, a byte-order mark, CRLF), every record handled as it completes
 * and dropped, so nothing but typed arrays grows with the file. Ids that are all whole numbers
 * (the common case: 0..n−1, 1..n) are kept as int32 and looked up in a dense table; other ids in a Map.
 *
 * A fault is a line number (the line a record starts on) and what is wrong; the first MAX_FAULTS are kept, all are
 * counted. The messages are made from them in the reader's language (app/modules/predictions/messages.ts).
 */
import { CsvError, readCsv } from "./csv.server.ts";
import { classMetric, predictsClass, type Metric } from "./metrics.ts";

import type { Fault, Faults } from "./faults.ts";

export type { Fault, FaultCode, Faults } from "./faults.ts";

export const MAX_FAULTS = 5;
const MAX_VALUE_CHARS = 40;
/** An accuracy or macro-F1 challenge's labels have at most this many classes. */
export const MAX_CLASSES = 1000;
/** A labels file has at most this many rows. */
export const MAX_ROWS = 5_000_000;
/** Ids kept as int32 in a dense table while they are whole numbers below this. */
const MAX_DENSE_ID = 1_000_000_000;

const WHOLE = /^(0|[1-9][0-9]{0,8})$/;
const DECIMAL = /^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$/;

/** A finite number written in decimal (no hex, no Infinity, no empty cell), or NaN. */
export function decimalOf(cell: string): number {
  if (cell.length > 64 || !DECIMAL.test(cell)) return NaN;
  const value = Number(cell);
  return Number.isFinite(value) ? value : NaN;
}

const cut = (value: string) => (value.length > MAX_VALUE_CHARS ? `${value.slice(0, MAX_VALUE_CHARS)}…` : value);

function addFault(faults: Faults, fault: Fault) {
  faults.count++;
  if (faults.first.length < MAX_FAULTS) faults.first.push(fault.value === undefined ? fault : { ...fault, value: cut(fault.value) });
}

/** A growing int32 or float64 array (doubling), trimmed at the end. */
class Grow<T extends Int32Array | Float64Array> {
  length = 0;
  constructor(
    public data: T,
    private readonly make: (size: number) => T,
  ) {}
  push(value: number) {
    if (this.length === this.data.length) {
      const bigger = this.make(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = value;
  }
  done(): T {
    return this.data.subarray(0, this.length) as T;
  }
}

/** An id's row: a dense table of whole-number ids, or a Map. */
export interface IdIndex {
  rowOf(id: string): number;
  /** The id of row `row` (for a missing id's message). */
  idOf(row: number): string;
}

class DenseIndex implements IdIndex {
  constructor(
    private readonly table: Int32Array,
    private readonly ids: Int32Array,
  ) {}
  rowOf(id: string): number {
    if (!WHOLE.test(id)) return -1;
    const n = Number(id);
    return n < this.table.length ? this.table[n] : -1;
  }
  idOf(row: number): string {
    return String(this.ids[row]);
  }
}

class MapIndex implements IdIndex {
  constructor(
    private readonly rows: Map<string, number>,
    private readonly ids: string[],
  ) {}
  rowOf(id: string): number {
    return this.rows.get(id) ?? -1;
  }
  idOf(row: number): string {
    return this.ids[row];
  }
}

export interface Labels {
  metric: Metric;
  idColumn: string;
  targetColumn: string;
  rows: number;
  index: IdIndex;
  /** Class metrics: each row's class code (ROC AUC: 0 or 1). */
  codes: Int32Array | null;
  /** RMSE, MAE: each row's number. */
  numbers: Float64Array | null;
  /** Class metrics: the classes by code, as written (ROC AUC: "0", "1"). */
  classes: string[];
}

export type Read<T> = { ok: true; value: T } | { ok: false; faults: Faults };

type Source = AsyncIterable<Uint8Array | string> | NodeJS.ReadableStream;

/**
 * Runs the records of a CSV stream through `each` (cells, line), the header first; nothing is kept. A stream that
 * is not CSV (an unclosed quote, a quote inside a cell) is a fault of its own, naming its line.
 */
async function eachRecord(source: Source, each: (cells: string[], line: number) => void, faults: Faults): Promise<void> {
  try {
    await readCsv(source as AsyncIterable<Uint8Array>, each);
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    addFault(faults, { code: "unreadable", line: error.line });
  }
}

/**
 * Reads a labels file for `metric`: a header naming the id column then the target column, then a row per id. Class
 * metrics' targets are classes (ROC AUC: 0 or 1), the error metrics' numbers.
 */
export async function readLabels(source: Source, metric: Metric): Promise<Read<Labels>> {
  const faults: Faults = { first: [], count: 0 };
  let header: [string, string] | null = null;
  let intIds: Grow<Int32Array> | null = new Grow(new Int32Array(1024), (n) => new Int32Array(n));
  let stringRows: Map<string, number> | null = null;
  let stringIds: string[] | null = null;
  const lines = new Grow(new Int32Array(1024), (n) => new Int32Array(n));
  const codes = classMetric(metric) ? new Grow(new Int32Array(1024), (n) => new Int32Array(n)) : null;
  const numbers = classMetric(metric) ? null : new Grow(new Float64Array(1024), (n) => new Float64Array(n));
  const classCodes = new Map<string, number>(metric === "roc_auc" ? [["0", 0], ["1", 1]] : []);
  const classes: string[] = metric === "roc_auc" ? ["0", "1"] : [];
  let rows = 0;

  const toStrings = () => {
    stringRows = new Map();
    stringIds = [];
    const ints = intIds!.done();
    for (let i = 0; i < ints.length; i++) {
      const id = String(ints[i]);
      stringIds.push(id);
      if (!stringRows.has(id)) stringRows.set(id, i);
    }
    intIds = null;
  };

  await eachRecord(
    source,
    (cells, line) => {
      if (!header) {
        if (cells.length !== 2 || !cells[0] || !cells[1] || cells[0] === cells[1]) addFault(faults, { code: "header", line, value: "id,target" });
        header = [cells[0] ?? "", cells[1] ?? ""];
        return;
      }
      if (cells.length !== 2) return addFault(faults, { code: "columnCount", line });
      const [id, target] = cells;
      if (!id) return addFault(faults, { code: "emptyId", line });
      if (rows >= MAX_ROWS) return addFault(faults, { code: "tooManyRows", line, other: MAX_ROWS });
      let value: number;
      if (codes) {
        let code = classCodes.get(target);
        if (code === undefined) {
          if (metric === "roc_auc") return addFault(faults, { code: "badBinary", line, value: target });
          if (!target) return addFault(faults, { code: "badClass", line, value: target });
          if (classes.length >= MAX_CLASSES) return addFault(faults, { code: "tooManyClasses", line, other: MAX_CLASSES });
          code = classes.length;
          classes.push(target);
          classCodes.set(target, code);
        }
        value = code;
      } else {
        value = decimalOf(target);
        if (Number.isNaN(value)) return addFault(faults, { code: "badNumber", line, value: target });
      }
      if (intIds && !WHOLE.test(id)) toStrings();
      if (intIds) intIds.push(Number(id));
      else {
        const known = stringRows!.get(id);
        if (known !== undefined) return addFault(faults, { code: "duplicateId", line, value: id, other: lines.data[known] });
        stringRows!.set(id, rows);
        stringIds!.push(id);
      }
      lines.push(line);
      if (codes) codes.push(value);
      else numbers!.push(value);
      rows++;
    },
    faults,
  );
  if (!header) addFault(faults, { code: "noRows", line: 0 });
  let index: IdIndex | null = null;
  if (intIds) {
    const ids = intIds.done();
    let max = -1;
    for (let i = 0; i < ids.length; i++) if (ids[i] > max) max = ids[i];
    if (max < MAX_DENSE_ID && max <= 4 * ids.length + 1024) {
      const table = new Int32Array(max + 1).fill(-1);
      for (let i = 0; i < ids.length; i++) {
        const known = table[ids[i]];
        if (known !== -1) addFault(faults, { code: "duplicateId", line: lines.data[i], value: String(ids[i]), other: lines.data[known] });
        else table[ids[i]] = i;
      }
      index = new DenseIndex(table, ids);
    } else {
      toStrings();
      // Duplicates among whole-number ids that were kept as int32: found now, the first row keeping the id.
      const seen = new Set<string>();
      for (let i = 0; i < stringIds!.length; i++) {
        const id = stringIds![i];
        if (seen.has(id)) addFault(faults, { code: "duplicateId", line: lines.data[i], value: id, other: lines.data[stringRows!.get(id)!] });
        seen.add(id);
      }
    }
  }
  if (!index) index = new MapIndex(stringRows!, stringIds!);
  if (header && rows === 0 && faults.count === 0) addFault(faults, { code: "noRows", line: 0 });
  if (faults.count > 0) return { ok: false, faults };
  const [idColumn, targetColumn] = header!;
  return { ok: true, value: { metric, idColumn, targetColumn, rows, index, codes: codes?.done() ?? null, numbers: numbers?.done() ?? null, classes } };
}

/** A team's predictions, in the labels' row order. */
export interface Predictions {
  /** Accuracy, macro-F1: each row's predicted class code. */
  codes: Int32Array | null;
  /** RMSE, MAE, ROC AUC: each row's number (ROC AUC: a score, higher meaning likelier positive). */
  numbers: Float64Array | null;
}

/** How many missing ids a message names. */
const MISSING_NAMED = 3;

/**
 * Reads a team's predictions against the labels: a header with the same two columns (in either order), then a row
 * for each id of the labels, once. Unknown, duplicate and missing ids, classes that are not the labels', numbers
 * that are not finite decimals and lines without exactly two cells are faults.
 */
export async function readPredictions(source: Source, labels: Labels): Promise<Read<Predictions>> {
  const faults: Faults = { first: [], count: 0 };
  const lineOf = new Int32Array(labels.rows);
  const codes = predictsClass(labels.metric) ? new Int32Array(labels.rows) : null;
  const numbers = codes ? null : new Float64Array(labels.rows);
  const classCodes = new Map(labels.classes.map((name, code) => [name, code]));
  let idFirst: boolean | null = null;
  let seen = 0;
  await eachRecord(
    source,
    (cells, line) => {
      if (idFirst === null) {
        if (cells.length === 2 && cells[0] === labels.idColumn && cells[1] === labels.targetColumn) idFirst = true;
        else if (cells.length === 2 && cells[1] === labels.idColumn && cells[0] === labels.targetColumn) idFirst = false;
        else {
          addFault(faults, { code: "header", line, value: `${labels.idColumn},${labels.targetColumn}` });
          idFirst = true;
        }
        return;
      }
      if (cells.length !== 2) return addFault(faults, { code: "columnCount", line });
      const id = idFirst ? cells[0] : cells[1];
      const target = idFirst ? cells[1] : cells[0];
      if (!id) return addFault(faults, { code: "emptyId", line });
      const row = labels.index.rowOf(id);
      if (row < 0) return addFault(faults, { code: "unknownId", line, value: id });
      if (lineOf[row] !== 0) return addFault(faults, { code: "duplicateId", line, value: id, other: lineOf[row] });
      if (codes) {
        const code = classCodes.get(target);
        if (code === undefined) return addFault(faults, { code: "badClass", line, value: target });
        codes[row] = code;
      } else {
        const value = decimalOf(target);
        if (Number.isNaN(value)) return addFault(faults, { code: "badNumber", line, value: target });
        numbers![row] = value;
      }
      lineOf[row] = line;
      seen++;
    },
    faults,
  );
  if (idFirst === null) addFault(faults, { code: "noRows", line: 0 });
  else if (seen < labels.rows && faults.count === 0) {
    // Only when nothing else is wrong: a line at fault is also an id missing, and its own message says more.
    const named: string[] = [];
    for (let row = 0; row < labels.rows && named.length < MISSING_NAMED; row++) if (lineOf[row] === 0) named.push(cut(labels.index.idOf(row)));
    addFault(faults, { code: "missingIds", line: 0, value: named.join(", "), other: labels.rows - seen });
  }
  if (faults.count > 0) return { ok: false, faults };
  return { ok: true, value: { codes, numbers } };
}
