import type { LoaderFunctionArgs } from "@remix-run/node";
import { requirePage } from "~/glue/auth.server";
import { storedBodyResponse } from "~/glue/stored-body.server";
import { openVideoFile } from "~/modules/videos/files.server";

/**
 * A video file we store (a home video, app/modules/videos/files.server.ts), for any signed-in user: the
 * home page shows it to every role. Ranges answered, so the player can seek.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requirePage(request);
  const video = await openVideoFile(params.id ?? "", request.headers.get("Range"));
  if (video.kind === "missing") throw new Response("Not found", { status: 404 });
  const headers = new Headers({
    "Accept-Ranges": "bytes",
    // The file under a uuid never changes; it is for signed-in users only, so no shared cache keeps it.
    "Cache-Control": "private, max-age=86400",
    "Cross-Origin-Resource-Policy": "same-origin",
  });
  if (video.kind === "unsatisfiable") {
    if (video.size !== undefined) headers.set("Content-Range", `bytes */${video.size}`);
    return new Response(null, { status: 416, headers });
  }
  headers.set("Content-Type", video.type);
  if (video.length !== undefined) headers.set("Content-Length", String(video.length));
  if (video.contentRange) headers.set("Content-Range", video.contentRange);
  return storedBodyResponse(request, video.body, { status: video.contentRange ? 206 : 200, headers });
}
