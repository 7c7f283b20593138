import { TeamRefSchema } from "~/modules/api/schemas";
import { TeamNameSchema } from "~/modules/teams/schema";
import { deleteTeam, renameTeam } from "~/modules/teams/teams.server";
import { apiResource, noContent, pathId, readBody, respond } from "~/glue/api.server";

const resource = apiResource("/teams/{id}", {
  PATCH: async ({ request, params }) => {
    const id = pathId(params.id);
    const { name } = await readBody(request, TeamNameSchema);
    return respond(TeamRefSchema, await renameTeam(id, name));
  },
  DELETE: async ({ params }) => {
    await deleteTeam(pathId(params.id));
    return noContent();
  },
});
export const loader = resource.loader;
export const action = resource.action;
