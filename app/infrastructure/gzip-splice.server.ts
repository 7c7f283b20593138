/**
 * A gzip body made of a compressed head shared by many answers and a short tail that differs per answer,
 * without compressing the head again: the head is deflated once and flushed to a byte boundary (a sync
 * flush, no final block), the tail follows as stored (uncompressed) blocks, the last one final, and the
 * trailer carries the CRC-32 of the whole (continued from the head's) and its length. One gzip member,
 * as RFC 1950–1952 define it: every client that reads gzip reads it.
 */
import zlib from "node:zlib";

export interface GzipHead {
  deflated: Buffer;
  crc: number;
  length: number;
}

/** The head, compressed once (keep it as long as the text it was made of). */
export function gzipHead(text: string): GzipHead {
  const raw = Buffer.from(text, "utf8");
  return { deflated: zlib.deflateRawSync(raw, { finishFlush: zlib.constants.Z_SYNC_FLUSH }), crc: zlib.crc32(raw), length: raw.length };
}

// Magic, deflate, no flags, no time, no extra flags, OS unknown.
const HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
const STORED_MAX = 0xffff;

/** The gzip body of `head`'s text followed by `tail`. */
export function gzipWithTail(head: GzipHead, tail: string): Buffer {
  const raw = Buffer.from(tail, "utf8");
  const parts: Buffer[] = [HEADER, head.deflated];
  let at = 0;
  do {
    const size = Math.min(STORED_MAX, raw.length - at);
    const block = Buffer.alloc(5);
    block[0] = at + size >= raw.length ? 1 : 0; // BFINAL, BTYPE 00 (stored); the flush left us byte-aligned.
    block.writeUInt16LE(size, 1);
    block.writeUInt16LE(~size & 0xffff, 3);
    parts.push(block, raw.subarray(at, at + size));
    at += size;
  } while (at < raw.length);
  const trailer = Buffer.alloc(8);
  // (zlib.crc32 of an empty buffer from Buffer.from("") answers 0 whatever it continues: no call for no bytes.)
  trailer.writeUInt32LE((raw.length === 0 ? head.crc : zlib.crc32(raw, head.crc)) >>> 0, 0);
  trailer.writeUInt32LE((head.length + raw.length) % 2 ** 32, 4);
  parts.push(trailer);
  return Buffer.concat(parts);
}
