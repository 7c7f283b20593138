import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { abortMultipartUploads, sweepStaleUploads, uploadsDir } from "./s3-uploads.ts";

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
});

async function storeWithUploads(ids: string[]) {
  const root = await mkdtemp(path.join(tmpdir(), "gk-s3-"));
  roots.push(root);
  for (const id of ids) {
    await mkdir(path.join(uploadsDir(root, "bucket-a"), id), { recursive: true });
    await writeFile(path.join(uploadsDir(root, "bucket-a"), id, "1"), "part");
  }
  return root;
}

const idA = "a".repeat(32);
const idB = "b".repeat(32);

describe("the embedded S3's multipart clean-up", () => {
  it("an abort removes that upload's parts and nothing else; an unknown or malformed id is a 404", async () => {
    const root = await storeWithUploads([idA, idB]);
    const handle = abortMultipartUploads(root);
    const call = async (method: string, url: string) => {
      const [pathname, search] = url.split("?");
      const ctx = { method, path: pathname, query: Object.fromEntries(new URLSearchParams(search)), status: 404, type: "", body: undefined as unknown };
      let passed = false;
      await handle(ctx, async () => (passed = true));
      return { status: ctx.status, passed };
    };
    expect(await call("DELETE", `/bucket-a/some/key?uploadId=${idA}`)).toEqual({ status: 204, passed: false });
    expect(await readdir(uploadsDir(root, "bucket-a"))).toEqual([idB]);
    expect((await call("DELETE", `/bucket-a/some/key?uploadId=${idA}`)).status).toBe(404);
    expect((await call("DELETE", `/bucket-a/key?uploadId=..%2F..%2Fbucket-a`)).status).toBe(404);
    expect((await call("DELETE", `/..%2F..?uploadId=${idB}`)).status).toBe(404);
    expect((await call("DELETE", `/%zz/key?uploadId=${idB}`)).status).toBe(404);
    expect(await readdir(uploadsDir(root, "bucket-a"))).toEqual([idB]);
    // Anything else goes on to s3rver.
    expect(await call("DELETE", "/bucket-a/some/key")).toMatchObject({ passed: true });
    expect(await call("PUT", `/bucket-a/some/key?uploadId=${idB}&partNumber=2`)).toMatchObject({ passed: true });
    // A part of an aborted upload is refused.
    expect(await call("PUT", `/bucket-a/some/key?uploadId=${idA}&partNumber=3`)).toEqual({ status: 404, passed: false });
  });

  it("a part still arriving when the abort comes does not bring the upload back", async () => {
    const root = await storeWithUploads([idA]);
    const handle = abortMultipartUploads(root);
    const ctx = (method: string, search: string) => ({ method, path: "/bucket-a/key", query: Object.fromEntries(new URLSearchParams(search)), status: 404, type: "", body: undefined as unknown });
    let finishPart!: () => void;
    // s3rver receiving part 2: it writes the part's file when its body has arrived.
    const part = handle(ctx("PUT", `uploadId=${idA}&partNumber=2`), async () => {
      await new Promise<void>((resolve) => (finishPart = resolve));
      await mkdir(path.join(uploadsDir(root, "bucket-a"), idA), { recursive: true });
      await writeFile(path.join(uploadsDir(root, "bucket-a"), idA, "2"), "late part");
    });
    await handle(ctx("DELETE", `uploadId=${idA}`), async () => {});
    finishPart();
    await part;
    expect(await readdir(uploadsDir(root, "bucket-a"))).toEqual([]);
  });

  it("the sweep removes uploads untouched for longer than the limit", async () => {
    const root = await storeWithUploads([idA, idB]);
    const dayAndAMinuteAgo = new Date(Date.now() - 24 * 3_600_000 - 60_000);
    await utimes(path.join(uploadsDir(root, "bucket-a"), idA), dayAndAMinuteAgo, dayAndAMinuteAgo);
    expect(await sweepStaleUploads(root, 24 * 3_600_000)).toBe(1);
    expect(await readdir(uploadsDir(root, "bucket-a"))).toEqual([idB]);
  });
});
