import { z } from "zod";
import { SessionOutSchema } from "~/modules/api/schemas";
import { endUserSessions, listUserSessions } from "~/modules/users/users.server";
import { apiResource, noContent, pathId, respond } from "~/glue/api.server";

const resource = apiResource("/users/{id}/sessions", {
  GET: async ({ params }) => {
    return respond(z.array(SessionOutSchema), await listUserSessions(pathId(params.id)));
  },
  DELETE: async ({ params }) => {
    await endUserSessions(pathId(params.id));
    return noContent();
  },
});
export const loader = resource.loader;
export const action = resource.action;
