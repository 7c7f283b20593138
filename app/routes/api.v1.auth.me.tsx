import { MeSchema, meOf } from "~/modules/api/schemas";
import { apiResource, respond } from "~/glue/api.server";

const resource = apiResource("/auth/me", {
  GET: async ({ caller }) => respond(MeSchema, meOf(caller)),
});
export const loader = resource.loader;
export const action = resource.action;
