import { VideosOutSchema } from "~/modules/api/schemas";
import { DashboardVideosSchema } from "~/modules/videos/schema";
import { getVideos, updateVideos } from "~/modules/videos/videos.server";
import { apiResource, readBody, respond } from "~/glue/api.server";

const resource = apiResource("/videos", {
  GET: async () => {
    return respond(VideosOutSchema, await getVideos());
  },
  PUT: async ({ request }) => {
    await updateVideos(await readBody(request, DashboardVideosSchema));
    return respond(VideosOutSchema, await getVideos());
  },
});
export const loader = resource.loader;
export const action = resource.action;
