import { z } from "zod";
import { createAnnouncement, listAnnouncements } from "~/modules/announcements/announcements.server";
import { AnnouncementSchema } from "~/modules/announcements/schema";
import { AnnouncementOutSchema } from "~/modules/api/schemas";
import { requireApiRole, requireApiUser } from "~/utils/api-auth.server";
import { apiResource, readBody, respond } from "~/utils/api.server";

const resource = apiResource({
  GET: async ({ request }) => {
    await requireApiUser(request);
    return respond(z.array(AnnouncementOutSchema), await listAnnouncements());
  },
  POST: async ({ request }) => {
    const admin = await requireApiRole(request, "admin");
    const announcement = await createAnnouncement(await readBody(request, AnnouncementSchema), admin.id);
    return respond(AnnouncementOutSchema, announcement, { status: 201 });
  },
});
export const loader = resource.loader;
export const action = resource.action;
