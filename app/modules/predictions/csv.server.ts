/**
 * A streaming CSV reader for prediction files (docs/decisions/043-prediction-challenges.md): RFC 4180 quoting (a
 * quoted cell may hold commas, doubled quotes and line breaks), LF or CRLF, a byte-order mark, blank lines skipped,
 * spaces around an unquoted cell trimmed. It reads bytes and hands each record to a callback as it completes, keeping
 * only the unfinished record between chunks. csv-parse, which the imports use, costs about 3.5 s of CPU a million
 * rows on this machine: two such files (labels and predictions) would not fit the 5 s a job has.
 */

const QUOTE = 0x22;
const COMMA = 0x2c;
const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const TAB = 0x09;

/** A record at most this long (bytes): a longer one is not CSV a team meant to send. */
const MAX_RECORD_BYTES = 100_000;

export class CsvError extends Error {
  constructor(public readonly line: number) {
    super(`unreadable CSV at line ${line}`);
  }
}

type OnRecord = (cells: string[], line: number) => void;

/** Where a record's parse stopped: complete (the next record's offset), or needs more bytes. */
const INCOMPLETE = -1;

/**
 * Parses the record at `start` of `buf`; on success calls `onRecord` and returns the offset after it and the lines
 * it spans. `final`: no more bytes will come (the end of the buffer ends the record).
 */
function parseRecord(buf: Buffer, start: number, final: boolean, line: number, cells: string[], onRecord: OnRecord): { next: number; lines: number } {
  const end = buf.length;
  let i = start;
  let lines = 0;
  cells.length = 0;
  let quotedAny = false;
  for (;;) {
    while (i < end && (buf[i] === SPACE || buf[i] === TAB)) i++;
    let cell: string;
    if (i < end && buf[i] === QUOTE) {
      quotedAny = true;
      i++;
      let from = i;
      let text = "";
      for (;;) {
        if (i >= end) {
          if (final) throw new CsvError(line);
          return { next: INCOMPLETE, lines: 0 };
        }
        const byte = buf[i];
        if (byte === QUOTE) {
          if (i + 1 < end && buf[i + 1] === QUOTE) {
            text += buf.toString("utf8", from, i + 1);
            i += 2;
            from = i;
            continue;
          }
          if (i + 1 >= end && !final) return { next: INCOMPLETE, lines: 0 };
          text += buf.toString("utf8", from, i);
          i++;
          break;
        }
        if (byte === LF) lines++;
        i++;
      }
      cell = text;
      while (i < end && (buf[i] === SPACE || buf[i] === TAB)) i++;
      if (i < end && buf[i] !== COMMA && buf[i] !== LF && buf[i] !== CR) throw new CsvError(line + lines);
    } else {
      const from = i;
      while (i < end) {
        const byte = buf[i];
        if (byte === COMMA || byte === LF || byte === CR) break;
        if (byte === QUOTE) throw new CsvError(line + lines);
        i++;
      }
      if (i >= end && !final) return { next: INCOMPLETE, lines: 0 };
      let to = i;
      while (to > from && (buf[to - 1] === SPACE || buf[to - 1] === TAB)) to--;
      cell = to > from ? buf.toString("utf8", from, to) : "";
    }
    cells.push(cell);
    if (i >= end) break;
    if (buf[i] === COMMA) {
      i++;
      continue;
    }
    // A line break: CR LF, LF, or a lone CR.
    if (buf[i] === CR) {
      if (i + 1 >= end && !final) return { next: INCOMPLETE, lines: 0 };
      i += i + 1 < end && buf[i + 1] === LF ? 2 : 1;
    } else i++;
    lines++;
    break;
  }
  // A blank line is no record.
  if (!(cells.length === 1 && cells[0] === "" && !quotedAny)) onRecord(cells, line);
  return { next: i, lines };
}

/**
 * Reads a CSV stream, calling `onRecord(cells, line)` for each record (its first line; the header is line 1). The
 * cells array is reused: copy what is kept. Throws a CsvError naming the line of a record that is not CSV.
 */
export async function readCsv(source: AsyncIterable<Uint8Array | string>, onRecord: OnRecord): Promise<void> {
  let carry: Buffer | null = null;
  let line = 1;
  let first = true;
  const cells: string[] = [];
  const drain = (buf: Buffer, final: boolean): Buffer | null => {
    let start = 0;
    if (first && buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) start = 3;
    if (first && (buf.length >= 3 || final)) first = false;
    while (start < buf.length) {
      const { next, lines } = parseRecord(buf, start, final, line, cells, onRecord);
      if (next === INCOMPLETE) {
        if (buf.length - start > MAX_RECORD_BYTES) throw new CsvError(line);
        return buf.subarray(start);
      }
      line += lines;
      start = next;
    }
    return null;
  };
  for await (const chunk of source) {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const buf = carry ? Buffer.concat([carry, bytes]) : bytes;
    carry = drain(buf, false);
  }
  if (carry) drain(carry, true);
}
