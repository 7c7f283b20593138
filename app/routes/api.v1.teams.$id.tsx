import { TeamRefSchema } from "~/modules/api/schemas";
import { TeamNameSchema } from "~/modules/teams/schema";
import { deleteTeam, renameTeam } from "~/modules/teams/teams.server";
import { actorOf } from "~/glue/actor.server";
import { apiResource, noContent, pathId, readBody, respond } from "~/glue/api.server";

// Callers must sign in: apiResource authenticates the caller (401 without a session or token) and applies this
// operation's roles from the catalogue (403) before the handler runs (app/glue/api.server.ts,
// app/modules/api/operations.ts); tests/integration/api-openapi.test.ts calls it as a visitor and as each role.
const resource = apiResource("/teams/{id}", {
  PATCH: async ({ request, params, caller }) => {
    const id = pathId(params.id);
    const { name } = await readBody(request, TeamNameSchema);
    return respond(TeamRefSchema, await renameTeam(actorOf(caller, request), id, name));
  },
  DELETE: async ({ request, params, caller }) => {
    await deleteTeam(actorOf(caller, request), pathId(params.id));
    return noContent();
  },
});
export const loader = resource.loader;
export const action = resource.action;
