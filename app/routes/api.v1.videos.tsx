import { VideosOutSchema } from "~/modules/api/schemas";
import { DashboardVideosSchema } from "~/modules/videos/schema";
import { getVideos, updateVideos } from "~/modules/videos/videos.server";
import { actorOf } from "~/glue/actor.server";
import { apiResource, readBody, respond } from "~/glue/api.server";

// Callers must sign in: apiResource authenticates the caller (401 without a session or token) and applies this
// operation's roles from the catalogue (403) before the handler runs (app/glue/api.server.ts,
// app/modules/api/operations.ts); tests/integration/api-openapi.test.ts calls it as a visitor and as each role.
const resource = apiResource("/videos", {
  GET: async () => {
    return respond(VideosOutSchema, await getVideos());
  },
  PUT: async ({ request, caller }) => {
    await updateVideos(actorOf(caller, request), await readBody(request, DashboardVideosSchema));
    return respond(VideosOutSchema, await getVideos());
  },
});
export const loader = resource.loader;
export const action = resource.action;
