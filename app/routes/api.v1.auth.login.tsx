import { ApiError } from "~/modules/api/errors";
import { MeSchema, meOf } from "~/modules/api/schemas";
import { ApiLoginSchema } from "~/modules/auth/login-schema";
import { InvalidCredentialsError, LoginThrottledError, sessionHeadersFor, verifyThrottledLogin } from "~/glue/auth.server";
import { publicApiResource, readBody, respond } from "~/glue/api.server";

/**
 * Public route: signing in needs no session. Same throttle as /login; apiResource's CSRF check
 * refuses a post from another site (login CSRF).
 */
const resource = publicApiResource("/auth/login", {
  POST: async ({ request }) => {
    const { username, password } = await readBody(request, ApiLoginSchema);
    try {
      const user = await verifyThrottledLogin(username, password, request);
      const headers = await sessionHeadersFor(user, request);
      const response = respond(MeSchema, meOf(user));
      for (const cookie of headers.getSetCookie()) response.headers.append("Set-Cookie", cookie);
      return response;
    } catch (error) {
      if (error instanceof InvalidCredentialsError) throw new ApiError("invalid_credentials", error.message);
      if (error instanceof LoginThrottledError) {
        throw new ApiError("throttled", error.message, undefined, { "Retry-After": String(error.retryAfterSeconds) });
      }
      throw error;
    }
  },
});
export const loader = resource.loader;
export const action = resource.action;
