/**
 * Reading an imported file into rows of named fields (decision 009): CSV with a header row
 * (csv-parse: RFC 4180 quoting, a byte-order mark, CRLF), or for challenges a JSON list. Every row
 * keeps the line it came from, so an error can name it. Unknown columns are refused rather than
 * ignored: a misspelt optional column ("wav") would otherwise be silently dropped from every row.
 */
import { parse } from "csv-parse/sync";
import { messages } from "../messages.ts";
import { asFormValues } from "../form-values.ts";

const m = messages.imports;

export interface FileRow {
  /** The line of the file (CSV, header = 1) or the position in the list (JSON, first = 1). */
  row: number;
  fields: Record<string, unknown>;
}

export type FileRead = { ok: true; rows: FileRow[] } | { ok: false; error: string };

export interface Columns {
  required: readonly string[];
  optional: readonly string[];
}

function checkColumns(names: string[], columns: Columns): string | null {
  const known = [...columns.required, ...columns.optional];
  const missing = columns.required.filter((name) => !names.includes(name));
  if (missing.length) return m.missingColumns(missing);
  const unknown = names.filter((name) => !known.includes(name));
  return unknown.length ? m.unknownColumns(unknown, known) : null;
}

function checkCount(rows: FileRow[], maxRows: number): FileRead {
  if (rows.length === 0) return { ok: false, error: m.empty };
  if (rows.length > maxRows) return { ok: false, error: m.tooManyRows(maxRows) };
  return { ok: true, rows };
}

export function readCsv(text: string, columns: Columns, maxRows: number): FileRead {
  let records: Array<{ record: string[]; info: { lines: number; empty_lines: number } }>;
  try {
    records = parse(text, { bom: true, skip_empty_lines: true, trim: true, info: true }) as unknown as typeof records;
  } catch (error) {
    return { ok: false, error: m.unreadableCsv(error instanceof Error ? error.message : String(error)) };
  }
  const [header, ...data] = records;
  if (!header) return { ok: false, error: m.empty };
  const names = header.record.map((name) => name.toLowerCase());
  const columnError = checkColumns(names, columns);
  if (columnError) return { ok: false, error: columnError };
  // csv-parse reports the line a record ends on; a quoted cell may span lines, so a record starts
  // after the previous one and the empty lines skipped since.
  const rows = data.map(({ record, info }, index) => {
    const previous = records[index].info;
    return {
      row: previous.lines + 1 + info.empty_lines - previous.empty_lines,
      fields: asFormValues(Object.fromEntries(names.map((name, column) => [name, record[column]]))),
    };
  });
  return checkCount(rows, maxRows);
}

/** A JSON list of objects, or an object holding one under `listKey`. */
export function readJsonList(text: string, listKey: string, columns: Columns, maxRows: number): FileRead {
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    return { ok: false, error: m.unreadableJson(error instanceof Error ? error.message : String(error)) };
  }
  const list = Array.isArray(value) ? value : (value as Record<string, unknown> | null)?.[listKey];
  if (!Array.isArray(list)) return { ok: false, error: m.jsonShape };
  const rows: FileRow[] = [];
  for (const [index, item] of list.entries()) {
    if (typeof item !== "object" || item === null || Array.isArray(item)) return { ok: false, error: `${index + 1}: ${m.notAnObject}` };
    const columnError = checkColumns(Object.keys(item), { required: [], optional: [...columns.required, ...columns.optional] });
    if (columnError) return { ok: false, error: `${index + 1}: ${columnError}` };
    rows.push({ row: index + 1, fields: asFormValues(item as Record<string, unknown>) });
  }
  return checkCount(rows, maxRows);
}
