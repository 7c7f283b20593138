import { z } from "zod";
import { SessionOutSchema } from "~/modules/api/schemas";
import { endUserSessions, listUserSessions } from "~/modules/users/users.server";
import { actorOf } from "~/glue/actor.server";
import { apiResource, noContent, pathId, respond } from "~/glue/api.server";

// Callers must sign in: apiResource authenticates the caller (401 without a session or token) and applies this
// operation's roles from the catalogue (403) before the handler runs (app/glue/api.server.ts,
// app/modules/api/operations.ts); tests/integration/api-openapi.test.ts calls it as a visitor and as each role.
const resource = apiResource("/users/{id}/sessions", {
  GET: async ({ params }) => {
    return respond(z.array(SessionOutSchema), await listUserSessions(pathId(params.id)));
  },
  DELETE: async ({ request, params, caller }) => {
    await endUserSessions(actorOf(caller, request), pathId(params.id));
    return noContent();
  },
});
export const loader = resource.loader;
export const action = resource.action;
