/**
 * Every CSV the organisers download (decisions 006, 007): UTF-8 with a byte-order mark so Excel shows
 * Arabic and accented names correctly, CRLF line ends and RFC 4180 quoting (csv-stringify), and cells a
 * spreadsheet would run as a formula defused with a leading apostrophe (OWASP CSV injection): team and
 * user names can come from the public registration form.
 */
import { stringify } from "csv-stringify/sync";

export const BOM = "\uFEFF";

/** A cell starting with one of these is a formula to Excel, LibreOffice and Google Sheets. */
const FORMULA_START = /^[=+\-@\t\r]/;

export type CsvCell = string | number | boolean | null | undefined;

export function safeCell(value: CsvCell): string {
  if (value === null || value === undefined) return "";
  const text = typeof value === "boolean" ? (value ? "yes" : "no") : String(value);
  return FORMULA_START.test(text) ? `'${text}` : text;
}

export function toCsv(header: string[], rows: CsvCell[][]): string {
  // csv-stringify quotes a cell holding a comma, a quote or a line break, doubling its quotes.
  return BOM + stringify([header, ...rows.map((row) => row.map(safeCell))], { record_delimiter: "windows" });
}

/** A file name with today's date, e.g. registrations-2026-04-20.csv. */
export function csvFileName(prefix: string, now = new Date()): string {
  return `${prefix}-${now.toISOString().slice(0, 10)}.csv`;
}

/** A download that is never cached (it holds personal data or live standings). */
export function csvResponse(body: string, filename: string): Response {
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "no-store",
    },
  });
}

/** A CSV as a data: URL: a one-time download built in the response itself (never stored anywhere). */
export function csvDataUrl(csv: string): string {
  return `data:text/csv;charset=utf-8;base64,${Buffer.from(csv, "utf8").toString("base64")}`;
}

/** Rows of a CSV without its header or byte-order mark: a chunk of a streamed file (csvStreamResponse). */
export function csvRows(rows: CsvCell[][]): string {
  return rows.length ? stringify(rows.map((row) => row.map(safeCell)), { record_delimiter: "windows" }) : "";
}

/** The byte-order mark and the header: the first chunk of a streamed CSV. */
export function csvHead(header: string[]): string {
  return BOM + csvRows([header]);
}

/**
 * A download written while it is read: each chunk is encoded and sent as it comes, so a file of a million
 * rows never sits in memory. A client that goes away stops the reading (the generator is returned).
 */
export function csvStreamResponse(chunks: AsyncIterable<string>, filename: string): Response {
  const iterator = chunks[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await iterator.next();
        if (done) controller.close();
        else controller.enqueue(encoder.encode(value));
      } catch (error) {
        controller.error(error);
      }
    },
    async cancel() {
      await iterator.return?.();
    },
  });
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "no-store",
    },
  });
}
