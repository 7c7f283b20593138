/**
 * A web process's first flag solve moves the board in the process's batch, as every later one does. The process's
 * Redis connection opened with its first use, the solve's own: the batch found Redis not ready yet and left the
 * team to the outbox sweep, seconds later (the live bench's first solves of each web process, 2.5–6 s late). No
 * worker runs here, so a team left to the sweep is never recomputed.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { createApiToken } from "../../app/modules/api-tokens/tokens.server.ts";
import { standings } from "../../db/schema.ts";
import { ensureEventSettings, makeTeam, makeUser, openAllGates, testAdmin } from "../support/fixtures.ts";
import { makeFlagChallenge } from "../support/flags.ts";
import { startWebServer, stopAll } from "../support/processes.ts";
import { rebuildStandings } from "../../app/modules/standings/rebuild.server.ts";

const state = {} as { url: string };

beforeAll(async () => {
  await ensureEventSettings();
  await openAllGates();
  state.url = (await startWebServer()).url;
}, 90_000);
afterAll(() => stopAll());

describe("a web process's first flag solve", () => {
  it("moves the board in the process's batch, not seconds later by the sweep", async () => {
    const challenge = await makeFlagChallenge([{ kind: "exact", value: "GK{first}" }], { points: 70 });
    const team = await makeTeam();
    const user = await makeUser("participant", team.id);
    const { token } = await createApiToken(testAdmin, user.id, "first solve");
    await rebuildStandings();

    // The process's first request of all.
    const response = await fetch(`${state.url}/api/v1/challenges/${challenge.id}/flag`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
      body: JSON.stringify({ answer: "GK{first}" }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ verdict: "correct", points: 70 });

    const deadline = Date.now() + 10_000;
    let total: number | undefined;
    while (Date.now() < deadline) {
      [{ total } = { total: undefined }] = await getDb().select({ total: standings.totalCenti }).from(standings).where(eq(standings.teamId, team.id));
      if (total === 7000) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(total).toBe(7000);
  });
});
