import { NotificationOutSchema } from "~/modules/api/schemas";
import { sendNotification } from "~/modules/notifications/notifications.server";
import { NotificationSchema } from "~/modules/notifications/schema";
import { actorOf } from "~/glue/actor.server";
import { apiResource, readBody, respond } from "~/glue/api.server";

// Callers must sign in: apiResource authenticates the caller (401 without a session or token) and applies this
// operation's roles from the catalogue (403) before the handler runs (app/glue/api.server.ts,
// app/modules/api/operations.ts); tests/integration/api-openapi.test.ts calls it as a visitor and as each role.
const resource = apiResource("/notifications", {
  POST: async ({ request, caller: admin }) => {
    const { message, messageAr } = await readBody(request, NotificationSchema);
    return respond(NotificationOutSchema, await sendNotification(actorOf(admin, request), message, messageAr), { status: 201 });
  },
});
export const loader = resource.loader;
export const action = resource.action;
