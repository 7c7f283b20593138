import { NotificationOutSchema } from "~/modules/api/schemas";
import { sendNotification } from "~/modules/notifications/notifications.server";
import { NotificationSchema } from "~/modules/notifications/schema";
import { apiResource, readBody, respond } from "~/glue/api.server";

const resource = apiResource("/notifications", {
  POST: async ({ request, caller: admin }) => {
    const { message } = await readBody(request, NotificationSchema);
    return respond(NotificationOutSchema, await sendNotification(message, admin.id), { status: 201 });
  },
});
export const loader = resource.loader;
export const action = resource.action;
