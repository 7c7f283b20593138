import { endUserSession } from "~/modules/users/users.server";
import { apiResource, noContent, pathId } from "~/glue/api.server";

const resource = apiResource("/users/{id}/sessions/{sessionId}", {
  DELETE: async ({ params }) => {
    await endUserSession(pathId(params.id), pathId(params.sessionId));
    return noContent();
  },
});
export const loader = resource.loader;
export const action = resource.action;
