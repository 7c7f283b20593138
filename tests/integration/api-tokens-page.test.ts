/** /dashboard/tokens: an admin creates a token for any user (shown once) and revokes it; nobody else may. */
import { describe, expect, it } from "vitest";
import { listApiTokens } from "../../app/modules/api-tokens/tokens.server.ts";
import { messages } from "../../app/modules/messages.ts";
import { action, loader } from "../../app/routes/dashboard.tokens.tsx";
import * as me from "../../app/routes/api.v1.auth.me.tsx";
import { makeTeam, makeUser, sessionCookie } from "../support/fixtures.ts";
import { send } from "../support/api.ts";

const url = "http://localhost/dashboard/tokens";

async function post(cookie: string, fields: Record<string, string>) {
  const request = new Request(url, { method: "POST", headers: { Cookie: cookie, Origin: "http://localhost" }, body: new URLSearchParams(fields) });
  return action({ request, params: {}, context: {} });
}

function dataOf(result: unknown) {
  // Remix's data() helper wraps the body in an object with `data` and `init`.
  return result as { data: { result: { status?: string; error?: Record<string, string[]> }; created: { token: string; name: string } | null }; init: { status?: number; headers?: Record<string, string> } | null };
}

describe("/dashboard/tokens", () => {
  it("creates a judge's token, shows it once, lists only its prefix, then revokes it", async () => {
    const admin = await makeUser("admin");
    const judge = await makeUser("judge");
    const cookie = await sessionCookie(admin.id);

    const created = await dataOf(await post(cookie, { intent: "create", userId: String(judge.id), name: "Judging script" }));
    expect(created.init?.headers).toMatchObject({ "Cache-Control": "no-store" });
    const token = created.data.created!.token;
    expect(token).toMatch(/^gk_/);
    expect((await send(me, "GET", "/auth/me", { token })).body).toMatchObject({ role: "judge", user: { id: judge.id } });

    const page = await loader({ request: new Request(url, { headers: { Cookie: cookie } }), params: {}, context: {} });
    const listed = page.tokens.find((row) => row.name === "Judging script")!;
    expect(listed).toMatchObject({ userName: judge.name, role: "judge", prefix: token.slice(0, 9), revokedAt: null });
    expect(JSON.stringify(page)).not.toContain(token);

    const revoked = (await post(cookie, { intent: "revoke", id: String(listed.id) })) as Response;
    expect(revoked.status).toBe(302);
    expect((await send(me, "GET", "/auth/me", { token })).status).toBe(401);
    expect((await listApiTokens()).find((row) => row.id === listed.id)?.revokedAt).toBeInstanceOf(Date);
  });

  it("validates the form", async () => {
    const admin = await makeUser("admin");
    const invalid = await dataOf(await post(await sessionCookie(admin.id), { intent: "create", name: "" }));
    expect(invalid.init?.status).toBe(400);
    expect(invalid.data.result.error).toMatchObject({ userId: [messages.apiTokens.userRequired], name: [messages.apiTokens.nameRequired] });
    const missing = await dataOf(await post(await sessionCookie(admin.id), { intent: "create", userId: "999999", name: "x" }));
    expect(missing.init?.status).toBe(404);
  });

  it("is for admins only", async () => {
    for (const user of [await makeUser("judge"), await makeUser("participant", (await makeTeam()).id)]) {
      const cookie = await sessionCookie(user.id);
      await expect(loader({ request: new Request(url, { headers: { Cookie: cookie } }), params: {}, context: {} })).rejects.toMatchObject({ init: { status: 403 } });
      await expect(post(cookie, { intent: "create", userId: String(user.id), name: "mine" })).rejects.toMatchObject({ init: { status: 403 } });
    }
  });
});
