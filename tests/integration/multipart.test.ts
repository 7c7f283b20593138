/**
 * The one multipart parser (submissions, challenge attachments, the import) against real storage:
 * what it keeps, what it drops, what a refusal leaves behind (nothing), and the text it gives back.
 */
import { ListObjectsV2Command } from "@aws-sdk/client-s3";
import { describe, expect, it } from "vitest";
import { getS3, objectExists } from "../../app/infrastructure/s3.server.ts";
import { getEnv } from "../../app/infrastructure/env.server.ts";
import { MultipartError, receiveMultipart, type FileRule } from "../../app/glue/multipart.server.ts";
import { expectNoIncompleteUploads } from "../support/buckets.ts";
import { multipart, type MultipartPart } from "../support/multipart.ts";

const MB = 1024 * 1024;
const bytes = (size: number, fill = 0x61) => new Uint8Array(size).fill(fill);
const file = (filename: string, body: Uint8Array | AsyncIterable<Uint8Array>): MultipartPart["value"] => ({ filename, body });
async function* chunked(total: number, chunk = MB) {
  for (let sent = 0; sent < total; sent += chunk) yield bytes(Math.min(chunk, total - sent));
}

const stored = (prefix: string): FileRule => ({ to: "storage", prefix, limitBytes: 8 * MB });

async function objectsUnder(prefix: string) {
  const listed = await getS3().send(new ListObjectsV2Command({ Bucket: getEnv().S3_BUCKET, Prefix: `${prefix}/` }));
  return listed.Contents?.length ?? 0;
}

async function refusal(promise: Promise<unknown>): Promise<MultipartError> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  if (!(error instanceof MultipartError)) throw new Error(`expected a MultipartError, got ${String(error)}`);
  return error;
}

describe("the multipart parser", () => {
  it("keeps the text fields in order and streams the expected file to storage", async () => {
    const form = await receiveMultipart(
      multipart([
        { name: "title", value: "Runes" },
        { name: "text", value: "ٱلسلام" },
        { name: "upload", value: file("answer.pdf", bytes(6 * MB)) },
      ]),
      { files: { upload: stored("mp-ok") }, maxFieldBytes: 1000 },
    );
    expect([...form.fields]).toEqual([
      ["title", "Runes"],
      ["text", "ٱلسلام"],
    ]);
    const upload = form.files.get("upload")!;
    expect(upload).toMatchObject({ name: "answer.pdf", size: 6 * MB });
    expect(await objectExists(upload.key!)).toBe(true);
  });

  it("drops files it does not expect, an empty file input, and a second file of the field", async () => {
    const form = await receiveMultipart(
      multipart([
        { name: "other", value: file("x.bin", bytes(1000)) },
        { name: "upload", value: file("", new Uint8Array(0)) },
        { name: "upload", value: file("first.txt", bytes(10)) },
        { name: "upload", value: file("second.txt", bytes(20)) },
        { name: "after", value: "kept" },
      ]),
      { files: { upload: stored("mp-drop") }, maxFieldBytes: 1000 },
    );
    expect([...form.files.keys()]).toEqual(["upload"]);
    expect(form.files.get("upload")).toMatchObject({ name: "first.txt", size: 10 });
    expect(form.fields.get("after")).toBe("kept");
    expect(await objectsUnder("mp-drop")).toBe(1);
  });

  it("a file its check refuses is not stored, and the fields after it still count", async () => {
    const form = await receiveMultipart(
      multipart([
        { name: "upload", value: file("fake.pdf", bytes(3 * MB)) },
        { name: "after", value: "kept" },
      ]),
      {
        files: { upload: { ...stored("mp-check"), check: { headBytes: 4, run: (_name, head) => (head[0] === 0x25 ? { ok: true, contentType: "application/pdf" } : { ok: false, message: "not a PDF" }) } } },
        maxFieldBytes: 1000,
      },
    );
    expect(form.refused.get("upload")).toBe("not a PDF");
    expect(form.files.size).toBe(0);
    expect(form.fields.get("after")).toBe("kept");
    expect(await objectsUnder("mp-check")).toBe(0);
  });

  it("a field past its limit after a stored file: refused with the text so far, the object deleted", async () => {
    const error = await refusal(
      receiveMultipart(
        multipart([
          { name: "text", value: "typed first" },
          { name: "upload", value: file("a.bin", bytes(6 * MB)) },
          { name: "notes", value: "n".repeat(2000) },
        ]),
        { files: { upload: stored("mp-field") }, maxFieldBytes: 1000 },
      ),
    );
    expect(error.kind).toBe("fieldTooLarge");
    expect(error.form.fields.get("text")).toBe("typed first");
    expect(await objectsUnder("mp-field")).toBe(0);
    await expectNoIncompleteUploads(getEnv().S3_BUCKET);
  });

  it("a file past its limit, to storage or to memory: refused, nothing kept", async () => {
    const toStorage = await refusal(
      receiveMultipart(multipart([{ name: "text", value: "hi" }, { name: "upload", value: file("big.bin", chunked(12 * MB)) }]), {
        files: { upload: stored("mp-big") },
        maxFieldBytes: 1000,
      }),
    );
    expect(toStorage).toMatchObject({ kind: "fileTooLarge", field: "upload" });
    expect(toStorage.form.fields.get("text")).toBe("hi");
    expect(await objectsUnder("mp-big")).toBe(0);
    await expectNoIncompleteUploads(getEnv().S3_BUCKET);

    const toMemory = await refusal(
      receiveMultipart(multipart([{ name: "file", value: file("big.csv", bytes(3000)) }]), { files: { file: { to: "memory", limitBytes: 2000 } }, maxFieldBytes: 1000 }),
    );
    expect(toMemory.kind).toBe("fileTooLarge");
  });

  it("a body cut short, too many fields, or more than 64 MB of files nobody asked for: malformed, nothing kept", async () => {
    const boundary = "----cut";
    const cut = new Request("http://localhost/x", {
      method: "POST",
      headers: { "Content-Type": `multipart/form-data; boundary=${boundary}` },
      body: `--${boundary}\r\nContent-Disposition: form-data; name="upload"; filename="a.bin"\r\n\r\n${"a".repeat(5000)}`,
    });
    expect((await refusal(receiveMultipart(cut, { files: { upload: stored("mp-cut") }, maxFieldBytes: 1000 }))).kind).toBe("malformed");
    expect(await objectsUnder("mp-cut")).toBe(0);

    const many = multipart(Array.from({ length: 101 }, (_, index) => ({ name: `f${index}`, value: "x" })));
    expect((await refusal(receiveMultipart(many, { files: {}, maxFieldBytes: 1000 }))).kind).toBe("malformed");

    const flood = multipart([{ name: "junk", value: file("junk.bin", chunked(65 * MB, 4 * MB)) }]);
    expect((await refusal(receiveMultipart(flood, { files: {}, maxFieldBytes: 1000 }))).kind).toBe("malformed");
  });
});
