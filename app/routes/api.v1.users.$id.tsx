import { UserOutSchema } from "~/modules/api/schemas";
import { UserEditSchema } from "~/modules/users/schema";
import { deleteUser, getUser, updateUser } from "~/modules/users/users.server";
import { actorOf } from "~/glue/actor.server";
import { apiResource, noContent, pathId, readBody, respond } from "~/glue/api.server";

const resource = apiResource("/users/{id}", {
  PATCH: async ({ request, params, caller: admin }) => {
    const id = pathId(params.id);
    await updateUser(actorOf(admin, request), { id, ...(await readBody(request, UserEditSchema)) });
    return respond(UserOutSchema, (await getUser(id))!);
  },
  DELETE: async ({ request, params, caller: admin }) => {
    await deleteUser(actorOf(admin, request), pathId(params.id));
    return noContent();
  },
});
export const loader = resource.loader;
export const action = resource.action;
