import { ApiError } from "~/modules/api/errors";
import { messages } from "~/modules/messages";
import { errorResponse } from "~/glue/api.server";

/** Public route: an unknown /api/v1 path answers the API's JSON 404, not the site's 404 page. */
async function notFound() {
  return errorResponse(new ApiError("not_found", messages.api.notFound));
}
export const loader = notFound;
export const action = notFound;
