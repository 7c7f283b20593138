import { z } from "zod";
import { TeamOutSchema, TeamRefSchema } from "~/modules/api/schemas";
import { TeamNameSchema } from "~/modules/teams/schema";
import { createTeam, listTeams } from "~/modules/teams/teams.server";
import { apiResource, readBody, respond } from "~/glue/api.server";

const resource = apiResource("/teams", {
  GET: async () => {
    return respond(z.array(TeamOutSchema), await listTeams());
  },
  POST: async ({ request }) => {
    const { name } = await readBody(request, TeamNameSchema);
    return respond(TeamRefSchema, await createTeam(name), { status: 201 });
  },
});
export const loader = resource.loader;
export const action = resource.action;
