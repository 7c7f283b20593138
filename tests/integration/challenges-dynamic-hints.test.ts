/** An admin writes a flag challenge's dynamic points and a challenge's hints that cost points (the form's module, the form's schema). */
import { parseWithZod } from "@conform-to/zod/v4";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { auditLog, challenges, standingsOutbox } from "../../db/schema.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { createChallenge, getChallenge, getPaidHintsText, updateChallenge } from "../../app/modules/challenges/challenges.server.ts";
import { ChallengeFormSchema } from "../../app/modules/challenges/schema.ts";
import { hintsForTeam } from "../../app/modules/flags/hints.server.ts";
import { sendFlag } from "../../app/modules/flags/guess.server.ts";
import { messages } from "../../app/modules/messages.ts";
import { actorFor, ensureEventSettings, ensureTwoOpenGates, makeTeam, makeUser, testAdmin } from "../support/fixtures.ts";

const fm = messages.flagAnswers;

beforeAll(async () => {
  await ensureEventSettings();
  await ensureTwoOpenGates();
});

const base = { title: "Dynamic", description: "d", points: 500, category: "CS" as const, wave: 1, checking: "flag" as const, answers: "exact: GK{dyn}" };

/** The form's parse: its field errors (none: {}), as the page would show them. */
function formOf(fields: Record<string, string>) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  const submission = parseWithZod(form, { schema: ChallengeFormSchema });
  return { status: submission.status, error: submission.status === "success" ? {} : submission.error };
}

describe("dynamic points and paid hints, as an admin writes them", () => {
  it("checks the curve in the form: flag challenges only, a minimum and a decay, the minimum at most the points", () => {
    const fields = { title: "t", description: "d", points: "300", category: "CS", checking: "flag", answers: "GK{x}", scoring: "dynamic" };
    expect(formOf(fields).error).toMatchObject({ minimumPoints: [fm.dynamicNeedsCurve], decay: [fm.dynamicNeedsCurve] });
    expect(formOf({ ...fields, minimumPoints: "400", decay: "5" }).error).toMatchObject({ minimumPoints: [fm.minimumAbovePoints] });
    expect(formOf({ ...fields, checking: "judges", answers: "", minimumPoints: "100", decay: "5" }).error).toMatchObject({ scoring: [fm.dynamicForFlags] });
    expect(formOf({ ...fields, minimumPoints: "100", decay: "5", paidHints: "25 | look\nabc" }).error).toMatchObject({ paidHints: [messages.hints.lineShape(2)] });
    expect(formOf({ ...fields, minimumPoints: "100", decay: "5", paidHints: "25.5 | look\n0 | free" }).status).toBe("success");
  });

  it("saves the curve and the hints, shows them back in the form, recomputes the solvers when the curve changes", async () => {
    const { id } = await createChallenge(testAdmin, { ...base, scoring: "dynamic", minimumPoints: 100, decay: 3, paidHints: "25.5 | Look at the logs\n0 | Free: it is a word" }, null);
    expect(await getChallenge(id)).toMatchObject({ scoring: "dynamic", minimumPoints: 100, decay: 3 });
    expect(await getPaidHintsText(id)).toBe("25.50 | Look at the logs\n0 | Free: it is a word");
    const team = await makeTeam();
    const user = await makeUser("participant", team.id);
    expect(await sendFlag({ actor: actorFor(user.id, user.name, "participant"), teamId: team.id, challengeId: id, answer: "GK{dyn}" })).toMatchObject({ points: 500 });
    await getDb().delete(standingsOutbox).where(eq(standingsOutbox.teamId, team.id));

    await updateChallenge(testAdmin, id, { ...base, scoring: "dynamic", minimumPoints: 50, decay: 3, paidHints: "30 | Look at the logs" }, null);
    expect(await getDb().select().from(standingsOutbox).where(eq(standingsOutbox.teamId, team.id))).toHaveLength(1);
    expect((await hintsForTeam(id, team.id)).map((hint) => [hint.cost, hint.text])).toEqual([[30, null]]);
    const [record] = await getDb().select().from(auditLog).where(eq(auditLog.subjectId, id)).orderBy(auditLog.id).then((rows) => rows.filter((row) => row.kind === "challenge.updated"));
    expect(record).toMatchObject({ before: { minimumPoints: 100 }, after: { minimumPoints: 50, paidHintsChanged: true } });
    expect(JSON.stringify(record)).not.toContain("Look at the logs");

    // Static again: the curve goes.
    await updateChallenge(testAdmin, id, { ...base, scoring: "static", paidHints: "" }, null);
    expect(await getDb().select({ scoring: challenges.scoring, minimumPoints: challenges.minimumPoints }).from(challenges).where(eq(challenges.id, id))).toEqual([{ scoring: "static", minimumPoints: null }]);
    expect(await getPaidHintsText(id)).toBe("");
  });

  it("refuses dynamic points on a judged challenge in the module too", async () => {
    await expect(createChallenge(testAdmin, { ...base, checking: "judges", answers: "", scoring: "dynamic", minimumPoints: 100, decay: 3 }, null)).rejects.toMatchObject({ status: 400, field: "scoring" });
  });
});
