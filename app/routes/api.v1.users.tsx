import { z } from "zod";
import { UserOutSchema } from "~/modules/api/schemas";
import { UserCreateSchema } from "~/modules/users/schema";
import { createUser, getUser, listUsers } from "~/modules/users/users.server";
import { actorOf } from "~/glue/actor.server";
import { apiResource, readBody, respond } from "~/glue/api.server";

const resource = apiResource("/users", {
  GET: async () => {
    return respond(z.array(UserOutSchema), await listUsers());
  },
  POST: async ({ request, caller }) => {
    const { id } = await createUser(actorOf(caller, request), await readBody(request, UserCreateSchema));
    return respond(UserOutSchema, (await getUser(id))!, { status: 201 });
  },
});
export const loader = resource.loader;
export const action = resource.action;
