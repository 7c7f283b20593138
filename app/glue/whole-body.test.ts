import { describe, expect, it } from "vitest";
import { responseOfWholeBody, wholeBodyOf } from "./whole-body.ts";

describe("a page's bytes beside its Response", () => {
  it("ride beside an empty body, with the status and headers given", async () => {
    const bytes = new TextEncoder().encode("<!DOCTYPE html><p>page</p>");
    const response = responseOfWholeBody(bytes, { status: 404, headers: { "Content-Type": "text/html", "Set-Cookie": "a=b" } });
    expect(wholeBodyOf(response)).toBe(bytes);
    expect(response.status).toBe(404);
    expect(response.headers.get("Set-Cookie")).toBe("a=b");
    // No web stream is made around them: the sender sends the bytes (app/glue/remix-express.server.ts).
    expect(response.body).toBeNull();
  });

  it("are not found on any other answer (Remix's own, a HEAD's remade Response)", () => {
    expect(wholeBodyOf(new Response("text"))).toBeNull();
    const page = responseOfWholeBody(new Uint8Array([1]), { status: 200 });
    expect(wholeBodyOf(new Response(null, { status: page.status, headers: page.headers }))).toBeNull();
  });
});
