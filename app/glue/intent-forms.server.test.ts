import { z } from "zod";
import { describe, expect, it } from "vitest";
import type { Actor } from "../modules/audit/audit.server.ts";
import { messages } from "../modules/messages.ts";
import { DashboardError } from "../modules/teams/teams.server.ts";
import { quietLogger } from "../../tests/support/quiet-logger.ts";
import { intentForm } from "./intent-forms.server.ts";

quietLogger();

const actor = { userId: 1, via: "session" } as unknown as Actor;
const schema = z.object({ intent: z.literal("gate"), number: z.coerce.number().int(), title: z.string().max(5, "Title too long") });
const form = (fields: Record<string, string>) => {
  const formData = new FormData();
  for (const [name, value] of Object.entries(fields)) formData.append(name, value);
  return formData;
};

/** The answer's body and status (a `data()` answer), or the thrown or returned Response. */
async function answer(run: Promise<unknown>) {
  const result = (await run) as { data?: unknown; init?: ResponseInit | null } | Response;
  if (result instanceof Response) return { response: result };
  return { body: result.data as { intent: string; number?: number; result: { error?: Record<string, string[] | null> } }, status: result.init?.status };
}

describe("a page's form named by its intent", () => {
  it("answers a form its schema refuses with the reply and 400, a numbered form carrying its number", async () => {
    const gate = intentForm(schema, async () => ({ saved: "never" }), { numbered: true });
    const { body, status } = await answer(gate(actor, form({ intent: "gate", number: "3", title: "far too long" }), "/page"));
    expect(status).toBe(400);
    expect(body).toMatchObject({ intent: "gate", number: 3, result: { error: { title: ["Title too long"] } } });
    const plain = intentForm(schema, async () => ({ saved: "never" }));
    expect((await answer(plain(actor, form({ intent: "gate", number: "3", title: "far too long" }), "/page"))).body).not.toHaveProperty("number");
  });

  it("puts a refusal the module answers on its input, with 400", async () => {
    const gate = intentForm(schema, async () => ({ refused: { field: "title", message: "No such time" } }));
    const { body, status } = await answer(gate(actor, form({ intent: "gate", number: "1", title: "x" }), "/page"));
    expect(status).toBe(400);
    expect(body?.result.error).toEqual({ title: ["No such time"] });
  });

  it("answers a thrown failure on the form when told how, and leaves it to the error page otherwise", async () => {
    const refuse = async () => {
      throw new DashboardError("That name is taken", 409);
    };
    const onForm = intentForm(schema, refuse, { failure: { log: "x", fieldOf: () => "title" } });
    const { body, status } = await answer(onForm(actor, form({ intent: "gate", number: "1", title: "x" }), "/page"));
    expect(status).toBe(409);
    expect(body?.result.error).toEqual({ title: [messages.dashboard.warn("That name is taken")] });
    await expect(intentForm(schema, refuse)(actor, form({ intent: "gate", number: "1", title: "x" }), "/page")).rejects.toThrow("That name is taken");
  });

  it("goes back to the page with the module's toast once saved", async () => {
    const gate = intentForm(schema, async (_actor, value) => ({ saved: `Gate ${value.number} saved` }));
    const { response } = await answer(gate(actor, form({ intent: "gate", number: "2", title: "x" }), "/page"));
    expect(response?.status).toBe(302);
    expect(response?.headers.get("Location")).toBe("/page");
    expect(response?.headers.get("Set-Cookie")).toContain("__gk_toast=");
  });
});
