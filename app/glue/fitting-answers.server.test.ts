import type { ServerBuild } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { withFittingAnswers } from "./fitting-answers.server.ts";

/** A build of one resource route (no default export) whose loader answers `answer`. */
function buildAnswering(answer: () => Response): ServerBuild {
  const loader = () => {
    throw answer();
  };
  return { routes: { "routes/media.$id": { id: "routes/media.$id", path: "media/:id", module: { loader } } } } as unknown as ServerBuild;
}

async function load(build: ServerBuild, headers: Record<string, string> = {}) {
  const module = build.routes["routes/media.$id"]!.module as unknown as { loader: (args: { request: Request }) => Promise<unknown> };
  return module.loader({ request: new Request("http://localhost/media/1", { headers }) }).catch((thrown: unknown) => thrown);
}

describe("a resource route's bare refusal gets its sentence", () => {
  it("keeps every header the route gave (a 416's Content-Range and Accept-Ranges), with the sentence's own body headers", async () => {
    const build = withFittingAnswers(
      buildAnswering(() => new Response(null, { status: 416, headers: { "Content-Range": "bytes */1000", "Accept-Ranges": "bytes", "Cache-Control": "private, max-age=86400" } })),
    );
    const answer = (await load(build)) as Response;
    expect(answer.status).toBe(416);
    expect(answer.headers.get("Content-Range")).toBe("bytes */1000");
    expect(answer.headers.get("Accept-Ranges")).toBe("bytes");
    expect(answer.headers.get("Cache-Control")).toBe("no-store");
    expect(answer.headers.get("Content-Type")).toBe("text/plain; charset=utf-8");
    expect((await answer.text()).length).toBeGreaterThan(10);
  });

  it("a bare Not found becomes the sentence, in Arabic when asked", async () => {
    const build = withFittingAnswers(buildAnswering(() => new Response("Not found", { status: 404 })));
    const answer = (await load(build, { "Accept-Language": "ar" })) as Response;
    expect(answer.status).toBe(404);
    expect(answer.headers.get("Content-Language")).toBe("ar");
    expect(await answer.text()).toMatch(/[\u0600-\u06ff]/);
  });
});
