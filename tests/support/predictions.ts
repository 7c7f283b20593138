/** Prediction challenges made as an admin makes them (app/modules/predictions), for the integration tests. */
import { eq } from "drizzle-orm";
import { Readable } from "node:stream";
import { challenges } from "../../db/schema.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { newObjectKey, uploadStream } from "../../app/infrastructure/s3.server.ts";
import { getPredictionChallenge, saveLabels, savePredictionSettings } from "../../app/modules/predictions/predictions.server.ts";
import { checkLabels } from "../../app/modules/predictions/scoring.server.ts";
import { actorFor, makeChallenge, makeUser } from "./fixtures.ts";

/** A file in storage, as the upload handler leaves it. */
export async function store(text: string, prefix = "predictions") {
  const key = newObjectKey(prefix);
  const stored = await uploadStream({ key, body: Readable.from([Buffer.from(text)]), limitBytes: 10_000_000 });
  return { key, name: `${prefix}.csv`, size: stored.size };
}

/** Ten rows, MAE: labels 0..9. */
export const LABELS = `id,y\n${Array.from({ length: 10 }, (_, i) => `${i + 1},${i}`).join("\n")}\n`;
export const predictionsOff = (off: number) => `id,y\n${Array.from({ length: 10 }, (_, i) => `${i + 1},${i + off}`).join("\n")}\n`;

/** A challenge scored by MAE on LABELS: 30 % public, baseline 4, target 0, 3 files a day. */
export async function metricChallenge(points = 100) {
  const admin = await makeUser("admin");
  const challenge = await makeChallenge({ points, category: "AI", wave: 1 });
  await getDb().update(challenges).set({ checking: "metric" }).where(eq(challenges.id, challenge.id));
  const actor = actorFor(admin.id, admin.name, "admin");
  await savePredictionSettings(actor, challenge.id, { metric: "mae", publicPercent: 30, baseline: 4, target: 0, dailyLimit: 3 });
  const settings = (await getPredictionChallenge(challenge.id))!;
  const labels = await checkLabels(await store(LABELS, "labels"), settings);
  if (!labels.ok) throw new Error("labels refused");
  await saveLabels(actor, challenge.id, labels.value);
  return { challenge, actor };
}
