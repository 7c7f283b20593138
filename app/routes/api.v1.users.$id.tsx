import { UserOutSchema } from "~/modules/api/schemas";
import { UserEditSchema } from "~/modules/users/schema";
import { deleteUser, getUser, updateUser } from "~/modules/users/users.server";
import { apiResource, noContent, pathId, readBody, respond } from "~/glue/api.server";

const resource = apiResource("/users/{id}", {
  PATCH: async ({ request, params, caller: admin }) => {
    const id = pathId(params.id);
    await updateUser(admin, { id, ...(await readBody(request, UserEditSchema)) });
    return respond(UserOutSchema, (await getUser(id))!);
  },
  DELETE: async ({ params, caller: admin }) => {
    await deleteUser(admin, pathId(params.id));
    return noContent();
  },
});
export const loader = resource.loader;
export const action = resource.action;
