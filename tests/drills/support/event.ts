/** A small event for a drill: an open gate, teams with a participant each, judges, challenges, submissions. */
import { count } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { gates } from "../../../db/schema.ts";
import { getDb } from "../../../app/infrastructure/db.server.ts";
import { ensureEventSettings, makeChallenge, makeSubmission, makeTeam, makeUser } from "../../support/fixtures.ts";

/** Every fixture user's password (tests/support/fixtures.ts). */
export const FIXTURE_PASSWORD = "fixture-password";

export async function seedDrillEvent(options: { teams: number; judges: number; challenges: number; submittedChallenges: number }) {
  await ensureEventSettings();
  const hourAgo = new Date(Date.now() - 3_600_000);
  await getDb()
    .insert(gates)
    .values([1, 2, 3, 4, 5].map((number) => ({ number, title: `Gate ${number}`, description: "d", opensAt: hourAgo })))
    .onConflictDoNothing();
  const teams = await Promise.all(
    Array.from({ length: options.teams }, async () => {
      const team = await makeTeam();
      return { team, participant: await makeUser("participant", team.id) };
    }),
  );
  const judges = await Promise.all(Array.from({ length: options.judges }, () => makeUser("judge")));
  const admin = await makeUser("admin");
  const challenges = [];
  // One at a time: titles and ids in a stable order (challenge i is worth 100 + i points).
  for (let index = 0; index < options.challenges; index++) challenges.push(await makeChallenge({ points: 100 + index, wave: 1 }));
  const submissions = [];
  for (const { team, participant } of teams) {
    for (const challenge of challenges.slice(0, options.submittedChallenges)) {
      submissions.push({ ...(await makeSubmission(team.id, challenge.id, participant.id)), points: challenge.points });
    }
  }
  return { teams, judges, admin, challenges, submissions };
}

export async function countRows(table: PgTable): Promise<number> {
  const [row] = await getDb().select({ rows: count() }).from(table);
  return row.rows;
}
