import { ApiError } from "~/modules/api/errors";
import { MeSchema, meOf } from "~/modules/api/schemas";
import { ApiLoginSchema } from "~/modules/auth/login-schema";
import { InvalidCredentialsError, LoginThrottledError, sessionCookieFor, verifyThrottledLogin } from "~/glue/auth.server";
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
      return respond(MeSchema, meOf(user), { headers: { "Set-Cookie": await sessionCookieFor(user, request) } });
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
