import { UserOutSchema } from "~/modules/api/schemas";
import { UserEditSchema } from "~/modules/users/schema";
import { deleteUser, getUser, updateUser } from "~/modules/users/users.server";
import { requireApiRole } from "~/utils/api-auth.server";
import { apiResource, noContent, pathId, readBody, respond } from "~/utils/api.server";

const resource = apiResource({
  PATCH: async ({ request, params }) => {
    const admin = await requireApiRole(request, "admin");
    const id = pathId(params.id);
    await updateUser(admin, { id, ...(await readBody(request, UserEditSchema)) });
    return respond(UserOutSchema, (await getUser(id))!);
  },
  DELETE: async ({ request, params }) => {
    const admin = await requireApiRole(request, "admin");
    await deleteUser(admin, pathId(params.id));
    return noContent();
  },
});
export const loader = resource.loader;
export const action = resource.action;
