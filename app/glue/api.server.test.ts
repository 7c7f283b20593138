import { describe, expect, it } from "vitest";
import { ApiError } from "../modules/api/errors.ts";
import { messages } from "../modules/messages.ts";
import { errorResponse, toApiError } from "./api.server.ts";
import { quietLogger } from "../../tests/support/quiet-logger.ts";

quietLogger();

describe("the API's error answers", () => {
  it("a call whose database is unreachable is 503 'unavailable' with Retry-After, not a 500", async () => {
    // What drizzle throws when postgres.js cannot connect: the driver's error as its cause.
    const refused = Object.assign(new Error("Failed query: select …"), { cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }) });
    const response = errorResponse(refused);
    expect(response.status).toBe(503);
    expect(response.headers.get("Retry-After")).toBe("5");
    expect(await response.json()).toEqual({ code: "unavailable", message: messages.errors.unavailable });
  });

  it("keeps an ApiError as it is and hides anything unknown behind 'internal'", () => {
    expect(toApiError(new ApiError("not_found", "No such team")).body).toEqual({ code: "not_found", message: "No such team" });
    expect(toApiError(new TypeError("x is undefined")).body).toEqual({ code: "internal", message: messages.errors.server });
  });
});
