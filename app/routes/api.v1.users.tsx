import { z } from "zod";
import { UserOutSchema } from "~/modules/api/schemas";
import { UserCreateSchema } from "~/modules/users/schema";
import { createUser, getUser, listUsers } from "~/modules/users/users.server";
import { requireApiRole } from "~/utils/api-auth.server";
import { apiResource, readBody, respond } from "~/utils/api.server";

const resource = apiResource({
  GET: async ({ request }) => {
    await requireApiRole(request, "admin");
    return respond(z.array(UserOutSchema), await listUsers());
  },
  POST: async ({ request }) => {
    await requireApiRole(request, "admin");
    const { id } = await createUser(await readBody(request, UserCreateSchema));
    return respond(UserOutSchema, (await getUser(id))!, { status: 201 });
  },
});
export const loader = resource.loader;
export const action = resource.action;
