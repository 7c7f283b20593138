import { getOpenApiDocument } from "~/modules/api/openapi.server";
import { publicApiResource } from "~/glue/api.server";

/** Public route: the API's description is no secret (every call in it still checks its caller). */
const resource = publicApiResource("/openapi.json", {
  GET: async () => Response.json(getOpenApiDocument(), { headers: { "Cache-Control": "public, max-age=300" } }),
});
export const loader = resource.loader;
export const action = resource.action;
