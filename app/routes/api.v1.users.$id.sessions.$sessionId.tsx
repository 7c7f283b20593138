import { endUserSession } from "~/modules/users/users.server";
import { requireApiRole } from "~/utils/api-auth.server";
import { apiResource, noContent, pathId } from "~/utils/api.server";

const resource = apiResource({
  DELETE: async ({ request, params }) => {
    await requireApiRole(request, "admin");
    await endUserSession(pathId(params.id), pathId(params.sessionId));
    return noContent();
  },
});
export const loader = resource.loader;
export const action = resource.action;
