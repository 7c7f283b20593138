/**
 * Which gates and categories a judge scores (docs/domain.md "Judging"). A judge with none scores every
 * submission; with gates, only those gates; with categories, only those categories; with both, those
 * categories within those gates. The queue applies it (app/modules/judging/queue.server.ts).
 */
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { anyOf } from "../../../db/any-of.ts";
import { judgeAssignments, users, type Category } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { DomainError } from "../errors.ts";
import { rowId } from "../ids.ts";
import { messages } from "../messages.ts";
import { categories } from "../scoring/rules.ts";

export interface Assignment {
  waves: number[];
  categories: Category[];
}

export const AssignmentSchema = z.object({
  judgeId: rowId(),
  waves: z.array(z.coerce.number().int().min(1).max(5)).max(5).optional(),
  categories: z.array(z.enum(categories)).max(4).optional(),
});

/** Every judge's assignment, by judge id (judges without one are absent). */
export async function listAssignments(): Promise<Map<number, Assignment>> {
  const rows = await getDb().select().from(judgeAssignments);
  const byJudge = new Map<number, Assignment>();
  for (const row of rows) {
    const assignment = byJudge.get(row.judgeId) ?? { waves: [], categories: [] };
    if (row.wave !== null) assignment.waves.push(row.wave);
    if (row.category !== null) assignment.categories.push(row.category);
    byJudge.set(row.judgeId, assignment);
  }
  for (const assignment of byJudge.values()) {
    assignment.waves.sort();
    assignment.categories.sort((a, b) => categories.indexOf(a) - categories.indexOf(b));
  }
  return byJudge;
}

/** Replaces a judge's (or a scoring admin's) assignment; nothing chosen: they score everything. */
export async function setAssignment(judgeId: number, assignment: Assignment): Promise<void> {
  await getDb().transaction(async (tx) => {
    const [judge] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, judgeId), anyOf(users.role, ["judge", "admin"])))
      .for("update");
    if (!judge) throw new DomainError(messages.judging.notAJudge, { status: 404 });
    await tx.delete(judgeAssignments).where(eq(judgeAssignments.judgeId, judgeId));
    const rows = [
      ...[...new Set(assignment.waves)].map((wave) => ({ judgeId, wave, category: null })),
      ...[...new Set(assignment.categories)].map((category) => ({ judgeId, wave: null, category })),
    ];
    if (rows.length) await tx.insert(judgeAssignments).values(rows);
  });
}
