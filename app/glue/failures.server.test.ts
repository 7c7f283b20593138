import { describe, expect, it } from "vitest";
import { DomainError } from "../modules/errors.ts";
import { messages } from "../modules/messages.ts";
import { DashboardError } from "../modules/teams/teams.server.ts";
import { quietLogger } from "../../tests/support/quiet-logger.ts";
import { dashboardFormFailure, failureOf, formFailure } from "./failures.server.ts";

quietLogger();

/** A stand-in for conform's submission: the reply it would build from these options. */
const submission = { reply: (options?: object) => ({ status: "error" as const, ...options }) };
const refused = Object.assign(new Error("Failed query"), { cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }) });

describe("a screen's failure", () => {
  it("shows a refusal in its own words and status, a dashboard one after the warning sign", () => {
    expect(failureOf(new DashboardError("Team not found", 404), { log: "x", fallback: "f" })).toMatchObject({ message: "Team not found", status: 404 });
    const failed = dashboardFormFailure(submission, new DashboardError("That name is taken", 409), { log: "x" });
    expect(failed.result).toMatchObject({ formErrors: [messages.dashboard.warn("That name is taken")] });
    expect(failed.init.status).toBe(409);
  });

  it("answers 503 with Retry-After when a service is down, and a fault with the screen's text and 500", () => {
    expect(failureOf(refused, { log: "x", fallback: "f" })).toMatchObject({ status: 503, message: messages.errors.unavailable, headers: { "Retry-After": "5" } });
    expect(failureOf(new TypeError("x is undefined"), { log: "x", fallback: "Could not save" })).toMatchObject({ status: 500, message: "Could not save" });
    expect(dashboardFormFailure(submission, new TypeError("boom"), { log: "x" }).result).toMatchObject({ formErrors: [messages.dashboard.unexpected] });
  });

  it("lets a guard's thrown response through", () => {
    const forbidden = new Response(null, { status: 403 });
    let thrown: unknown;
    try {
      failureOf(forbidden, { log: "x", fallback: "f" });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBe(forbidden);
  });

  it("puts the message on the input the page names, keeps hidden inputs hidden", () => {
    const onField = formFailure(submission, new DomainError("Too high", { field: "score" }), { log: "x", fallback: "f", fieldOf: (refusal) => refusal?.field ?? "row", hideFields: ["password"] });
    expect(onField.result).toMatchObject({ fieldErrors: { score: ["Too high"] }, hideFields: ["password"] });
    expect(formFailure(submission, new Error("boom"), { log: "x", fallback: "f", fieldOf: (refusal) => refusal?.field ?? "row" }).result).toMatchObject({ fieldErrors: { row: ["f"] } });
  });
});
