/**
 * A home video stored by us plays from /media/<id> (routes/media.$id.tsx): signed-in users only, its type,
 * byte ranges for seeking, and nothing else of the bucket reachable through that path.
 */
import { Readable } from "node:stream";
import { beforeAll, describe, expect, it } from "vitest";
import * as media from "../../app/routes/media.$id.tsx";
import { newObjectKey, uploadStream } from "../../app/infrastructure/s3.server.ts";
import { storeVideoFile } from "../../app/modules/videos/files.server.ts";
import { DashboardVideosSchema } from "../../app/modules/videos/schema.ts";
import { makeUser, sessionCookie } from "../support/fixtures.ts";

const body = Buffer.from(Array.from({ length: 1000 }, (_, index) => index % 251));
let cookie: string;
let path: string;

async function get(url: string, headers: Record<string, string> = {}, init: RequestInit = {}): Promise<Response> {
  const id = url.split("/").pop()!;
  try {
    return (await media.loader({ request: new Request(`http://localhost${url}`, { headers, ...init }), params: { id }, context: {} })) as Response;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

beforeAll(async () => {
  cookie = await sessionCookie((await makeUser("participant")).id);
  path = await storeVideoFile(body, "video/webm");
});

describe("a stored home video", () => {
  it("never holds a storage connection for a HEAD or a client that left: 120 of them, then a GET still answers", async () => {
    // Larger than a stream's first chunks: an unread S3 response of this size keeps its connection (the
    // S3 client has 50), which is what a HEAD did when Remix dropped its body unread.
    const large = Buffer.alloc(300 * 1024, 7);
    const largePath = await storeVideoFile(large, "video/mp4");
    for (let round = 0; round < 60; round++) {
      const head = await get(largePath, { Cookie: cookie }, { method: "HEAD" });
      expect(head.status).toBe(200);
      expect(head.headers.get("Content-Length")).toBe(String(large.length));
      expect(head.body).toBeNull();
      const leaving = new AbortController();
      const left = await get(largePath, { Cookie: cookie }, { signal: leaving.signal });
      expect(left.status).toBe(200);
      leaving.abort();
    }
    const whole = await get(largePath, { Cookie: cookie });
    expect(Buffer.from(await whole.arrayBuffer()).length).toBe(large.length);
  }, 30_000);

  it("is a path of our own that the videos form accepts", () => {
    expect(path).toMatch(/^\/media\/[0-9a-f-]{36}$/);
    const accepted = DashboardVideosSchema.safeParse({ video2: path });
    expect(accepted.success).toBe(true);
    for (const refused of ["/media/../submissions/x", "/media/abc", "/other/path", "javascript:alert(1)"]) {
      expect(DashboardVideosSchema.safeParse({ video1: refused }).success, refused).toBe(false);
    }
  });

  it("answers whole with its video type, and says it takes ranges", async () => {
    const answer = await get(path, { Cookie: cookie });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("Content-Type")).toBe("video/webm");
    expect(answer.headers.get("Accept-Ranges")).toBe("bytes");
    expect(answer.headers.get("Content-Length")).toBe("1000");
    expect(Buffer.from(await answer.arrayBuffer())).toEqual(body);
  });

  it("answers the byte range a player asks for (206), and 416 past its end", async () => {
    const part = await get(path, { Cookie: cookie, Range: "bytes=100-199" });
    expect(part.status).toBe(206);
    expect(part.headers.get("Content-Range")).toBe("bytes 100-199/1000");
    expect(Buffer.from(await part.arrayBuffer())).toEqual(body.subarray(100, 200));
    const rest = await get(path, { Cookie: cookie, Range: "bytes=900-" });
    expect(rest.status).toBe(206);
    expect(Buffer.from(await rest.arrayBuffer())).toEqual(body.subarray(900));
    const past = await get(path, { Cookie: cookie, Range: "bytes=5000-" });
    expect(past.status).toBe(416);
    expect(past.headers.get("Content-Range")).toBe("bytes */1000");
    // A form it does not answer (a suffix): the whole file, which HTTP allows.
    expect((await get(path, { Cookie: cookie, Range: "bytes=-10" })).status).toBe(200);
  });

  it("is for signed-in users: a visitor is sent to log in", async () => {
    const answer = await get(path);
    expect(answer.status).toBe(302);
    expect(answer.headers.get("Location")).toMatch(/^\/login\?redirectTo=/);
  });

  it("reaches nothing else of the bucket, and an unknown id is 404", async () => {
    // A submission's file has a uuid key too, under another prefix: /media/<that uuid> does not find it.
    const other = newObjectKey("submissions");
    await uploadStream({ key: other, body: Readable.from([Buffer.from("secret")]), contentType: "video/webm", limitBytes: 100 });
    expect((await get(`/media/${other.split("/")[1]}`, { Cookie: cookie })).status).toBe(404);
    expect((await get(`/media/${crypto.randomUUID()}`, { Cookie: cookie })).status).toBe(404);
    expect((await get("/media/..%2Fsubmissions", { Cookie: cookie })).status).toBe(404);
  });

  it("is served as a download when it was stored under a type that is not a video's", async () => {
    const stored = await storeVideoFile(Buffer.from("<html>"), "text/html");
    const answer = await get(stored, { Cookie: cookie });
    expect(answer.headers.get("Content-Type")).toBe("application/octet-stream");
  });
});
