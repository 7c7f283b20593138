import { TeamRefSchema } from "~/modules/api/schemas";
import { TeamDivisionSchema } from "~/modules/teams/schema";
import { setTeamDivision } from "~/modules/teams/teams.server";
import { actorOf } from "~/glue/actor.server";
import { apiResource, pathId, readBody, respond } from "~/glue/api.server";

// Callers must sign in: apiResource authenticates the caller (401 without a session or token) and applies this
// operation's roles from the catalogue (403) before the handler runs (app/glue/api.server.ts,
// app/modules/api/operations.ts); tests/integration/api-openapi.test.ts calls it as a visitor and as each role.
/** A team's division (docs/domain.md "Divisions"): PUT puts it in one of the event's, DELETE in none. */
const resource = apiResource("/teams/{id}/division", {
  PUT: async ({ request, params, caller }) => {
    const id = pathId(params.id);
    const { division } = await readBody(request, TeamDivisionSchema);
    return respond(TeamRefSchema, await setTeamDivision(actorOf(caller, request), id, division ?? null));
  },
  DELETE: async ({ request, params, caller }) => {
    return respond(TeamRefSchema, await setTeamDivision(actorOf(caller, request), pathId(params.id), null));
  },
});
export const loader = resource.loader;
export const action = resource.action;
