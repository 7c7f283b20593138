import { ApiError } from "~/modules/api/errors";
import { messages } from "~/modules/messages";
import { errorResponse } from "~/glue/api.server";

/** Public route: an unknown /api/v1 path answers the API's JSON 404, not the site's 404 page. */
async function notFound({ request }: { request: Request }) {
  return errorResponse(new ApiError("not_found", messages.api.notFound), request.headers.get("Accept-Language"));
}
export const loader = notFound;
export const action = notFound;
