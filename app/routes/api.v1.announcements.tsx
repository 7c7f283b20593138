import { z } from "zod";
import { createAnnouncement, listAnnouncements } from "~/modules/announcements/announcements.server";
import { AnnouncementSchema } from "~/modules/announcements/schema";
import { AnnouncementOutSchema } from "~/modules/api/schemas";
import { apiResource, readBody, respond } from "~/glue/api.server";

const resource = apiResource("/announcements", {
  GET: async () => {
    return respond(z.array(AnnouncementOutSchema), await listAnnouncements());
  },
  POST: async ({ request, caller: admin }) => {
    const announcement = await createAnnouncement(await readBody(request, AnnouncementSchema), admin.id);
    return respond(AnnouncementOutSchema, announcement, { status: 201 });
  },
});
export const loader = resource.loader;
export const action = resource.action;
