import { z } from "zod";
import { createAnnouncement, listAnnouncements } from "~/modules/announcements/announcements.server";
import { AnnouncementSchema } from "~/modules/announcements/schema";
import { AnnouncementOutSchema } from "~/modules/api/schemas";
import { actorOf } from "~/glue/actor.server";
import { apiResource, readBody, respond } from "~/glue/api.server";

// Callers must sign in: apiResource authenticates the caller (401 without a session or token) and applies this
// operation's roles from the catalogue (403) before the handler runs (app/glue/api.server.ts,
// app/modules/api/operations.ts); tests/integration/api-openapi.test.ts calls it as a visitor and as each role.
const resource = apiResource("/announcements", {
  GET: async () => {
    return respond(z.array(AnnouncementOutSchema), await listAnnouncements());
  },
  POST: async ({ request, caller: admin }) => {
    const announcement = await createAnnouncement(actorOf(admin, request), await readBody(request, AnnouncementSchema));
    return respond(AnnouncementOutSchema, announcement, { status: 201 });
  },
});
export const loader = resource.loader;
export const action = resource.action;
