import { endUserSession } from "~/modules/users/users.server";
import { actorOf } from "~/glue/actor.server";
import { apiResource, noContent, pathId } from "~/glue/api.server";

// Callers must sign in: apiResource authenticates the caller (401 without a session or token) and applies this
// operation's roles from the catalogue (403) before the handler runs (app/glue/api.server.ts,
// app/modules/api/operations.ts); tests/integration/api-openapi.test.ts calls it as a visitor and as each role.
const resource = apiResource("/users/{id}/sessions/{sessionId}", {
  DELETE: async ({ request, params, caller }) => {
    await endUserSession(actorOf(caller, request), pathId(params.id), pathId(params.sessionId));
    return noContent();
  },
});
export const loader = resource.loader;
export const action = resource.action;
