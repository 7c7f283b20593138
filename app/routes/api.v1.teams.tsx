import { z } from "zod";
import { TeamOutSchema, TeamRefSchema } from "~/modules/api/schemas";
import { TeamCreateSchema } from "~/modules/teams/schema";
import { createTeam, listTeams } from "~/modules/teams/teams.server";
import { actorOf } from "~/glue/actor.server";
import { apiResource, readBody, respond } from "~/glue/api.server";

// Callers must sign in: apiResource authenticates the caller (401 without a session or token) and applies this
// operation's roles from the catalogue (403) before the handler runs (app/glue/api.server.ts,
// app/modules/api/operations.ts); tests/integration/api-openapi.test.ts calls it as a visitor and as each role.
const resource = apiResource("/teams", {
  GET: async () => {
    return respond(z.array(TeamOutSchema), await listTeams());
  },
  POST: async ({ request, caller }) => {
    const { name, division } = await readBody(request, TeamCreateSchema);
    return respond(TeamRefSchema, await createTeam(actorOf(caller, request), name, division ?? null), { status: 201 });
  },
});
export const loader = resource.loader;
export const action = resource.action;
