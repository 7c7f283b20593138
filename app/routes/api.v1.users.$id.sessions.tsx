import { z } from "zod";
import { SessionOutSchema } from "~/modules/api/schemas";
import { endUserSessions, listUserSessions } from "~/modules/users/users.server";
import { requireApiRole } from "~/utils/api-auth.server";
import { apiResource, noContent, pathId, respond } from "~/utils/api.server";

const resource = apiResource({
  GET: async ({ request, params }) => {
    await requireApiRole(request, "admin");
    return respond(z.array(SessionOutSchema), await listUserSessions(pathId(params.id)));
  },
  DELETE: async ({ request, params }) => {
    await requireApiRole(request, "admin");
    await endUserSessions(pathId(params.id));
    return noContent();
  },
});
export const loader = resource.loader;
export const action = resource.action;
