import { contentDisposition } from "../../app/modules/file-names.ts";
import { createHash, randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import {
  deleteObject,
  newObjectKey,
  objectExists,
  presignDownload,
  uploadStream,
  UploadTooLargeError,
} from "../../app/infrastructure/s3.server.ts";
import { expectNoIncompleteUploads } from "../support/buckets.ts";

const md5 = (data: Uint8Array) => createHash("md5").update(data).digest("hex");

/** A body that arrives in many small chunks, as a browser upload does. */
function chunked(data: Buffer, size = 64 * 1024) {
  return Readable.from(
    (function* () {
      for (let offset = 0; offset < data.length; offset += size) yield data.subarray(offset, offset + size);
    })(),
  );
}

describe("storage", () => {
  it("streams a multi-part upload and downloads it byte for byte through a presigned URL", async () => {
    const data = randomBytes(12 * 1024 * 1024 + 123);
    const key = newObjectKey("test");
    const stored = await uploadStream({ key, body: chunked(data), contentType: "application/pdf", limitBytes: 20 * 1024 * 1024 });
    expect(stored.size).toBe(data.length);

    const url = await presignDownload(key, contentDisposition("report «final».pdf"));
    const response = await fetch(url);
    expect(response.status).toBe(200);
    const body = new Uint8Array(await response.arrayBuffer());
    expect(body.length).toBe(data.length);
    expect(md5(body)).toBe(md5(data));
  });

  it("cuts an upload past its limit and leaves nothing behind", async () => {
    const key = newObjectKey("test");
    await expect(
      uploadStream({ key, body: chunked(randomBytes(6 * 1024 * 1024)), limitBytes: 5 * 1024 * 1024 + 10 }),
    ).rejects.toBeInstanceOf(UploadTooLargeError);
    expect(await objectExists(key)).toBe(false);
    // Its first 5 MiB part was stored: the abort must reach the storage, or the part stays on its disk.
    await expectNoIncompleteUploads(process.env.S3_BUCKET!);
  });

  it("aborts the multipart upload when the body breaks off (a browser gone mid-upload)", async () => {
    const key = newObjectKey("test");
    const broken = Readable.from(
      (async function* () {
        for (let sent = 0; sent < 11 * 1024 * 1024; sent += 1024 * 1024) yield randomBytes(1024 * 1024);
        throw new Error("connection reset by peer");
      })(),
    );
    await expect(uploadStream({ key, body: broken, limitBytes: 200 * 1024 * 1024 })).rejects.toThrow();
    expect(await objectExists(key)).toBe(false);
    await expectNoIncompleteUploads(process.env.S3_BUCKET!);
  });

  it("cuts a small over-limit body too (single-part path)", async () => {
    const key = newObjectKey("test");
    await expect(uploadStream({ key, body: chunked(randomBytes(2000), 500), limitBytes: 1000 })).rejects.toBeInstanceOf(
      UploadTooLargeError,
    );
    expect(await objectExists(key)).toBe(false);
  });

  it("deletes objects", async () => {
    const key = newObjectKey("test");
    await uploadStream({ key, body: chunked(Buffer.from("bye")), limitBytes: 10 });
    expect(await objectExists(key)).toBe(true);
    await deleteObject(key);
    expect(await objectExists(key)).toBe(false);
  });
});
