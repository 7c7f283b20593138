/**
 * How judging runs (docs/domain.md "Judging"), two event settings: how many judges score each submission
 * (null: every judge, the mean counts) and blind judging (judges see no team or member names until an
 * admin turns it off, which publishes them).
 */
import { eq } from "drizzle-orm";
import { eventSettings } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { recordAudit, type Actor } from "../audit/audit.server.ts";
import { DomainError } from "../errors.ts";
import { messages } from "../messages.ts";

export interface JudgingSettings {
  judgesPerSubmission: number | null;
  blind: boolean;
}

export async function getJudgingSettings(): Promise<JudgingSettings> {
  const [row] = await getDb()
    .select({ judgesPerSubmission: eventSettings.judgesPerSubmission, blind: eventSettings.blindJudging })
    .from(eventSettings)
    .where(eq(eventSettings.id, 1))
    .limit(1);
  return { judgesPerSubmission: row?.judgesPerSubmission ?? null, blind: row?.blind ?? false };
}

export async function updateJudgingSettings(actor: Actor, settings: JudgingSettings): Promise<void> {
  await getDb().transaction(async (tx) => {
    const [before] = await tx
      .select({ judgesPerSubmission: eventSettings.judgesPerSubmission, blind: eventSettings.blindJudging })
      .from(eventSettings)
      .where(eq(eventSettings.id, 1))
      .for("update");
    if (!before) throw new DomainError(messages.judging.needsFinal, { status: 400 });
    await tx.update(eventSettings).set({ judgesPerSubmission: settings.judgesPerSubmission, blindJudging: settings.blind }).where(eq(eventSettings.id, 1));
    if (before.judgesPerSubmission !== settings.judgesPerSubmission || before.blind !== settings.blind) {
      await recordAudit(tx, actor, { kind: "event.judging", before, after: { ...settings } });
    }
  });
}
