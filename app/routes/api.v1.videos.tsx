import { VideosOutSchema } from "~/modules/api/schemas";
import { DashboardVideosSchema } from "~/modules/videos/schema";
import { getVideos, updateVideos } from "~/modules/videos/videos.server";
import { requireApiRole, requireApiUser } from "~/utils/api-auth.server";
import { apiResource, readBody, respond } from "~/utils/api.server";

const resource = apiResource({
  GET: async ({ request }) => {
    await requireApiUser(request);
    return respond(VideosOutSchema, await getVideos());
  },
  PUT: async ({ request }) => {
    await requireApiRole(request, "admin");
    await updateVideos(await readBody(request, DashboardVideosSchema));
    return respond(VideosOutSchema, await getVideos());
  },
});
export const loader = resource.loader;
export const action = resource.action;
