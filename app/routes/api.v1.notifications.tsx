import { NotificationOutSchema } from "~/modules/api/schemas";
import { sendNotification } from "~/modules/notifications/notifications.server";
import { NotificationSchema } from "~/modules/notifications/schema";
import { requireApiRole } from "~/utils/api-auth.server";
import { apiResource, readBody, respond } from "~/utils/api.server";

const resource = apiResource({
  POST: async ({ request }) => {
    const admin = await requireApiRole(request, "admin");
    const { message } = await readBody(request, NotificationSchema);
    return respond(NotificationOutSchema, await sendNotification(message, admin.id), { status: 201 });
  },
});
export const loader = resource.loader;
export const action = resource.action;
