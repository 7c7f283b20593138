/**
 * Putting a post of the first-blood webhook on the queue (docs/domain.md "First-blood webhook"); a worker
 * delivers it (./delivery.server.ts). A first blood is told after its solve has committed, and the telling
 * never holds up or fails the solve: a database or a Redis that does not answer is logged and forgotten.
 */
import { eq } from "drizzle-orm";
import { eventSettings } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { getLogger } from "../../infrastructure/logger.server.ts";
import { enqueue } from "../../infrastructure/queue.server.ts";
import { DomainError } from "../errors.ts";
import { messages } from "../messages.ts";
import type { FirstBloodEvent } from "./body.ts";

export interface FirstBlood extends FirstBloodEvent {
  challengeId: number;
  teamId: number;
  solvedAt: Date;
}

/** Whether a URL is set (the secret comes with the first save of one). */
async function webhookIsOn(): Promise<boolean> {
  const [row] = await getDb()
    .select({ url: eventSettings.firstBloodWebhookUrl, secret: eventSettings.firstBloodWebhookSecret })
    .from(eventSettings)
    .where(eq(eventSettings.id, 1))
    .limit(1);
  return Boolean(row?.url && row.secret);
}

/**
 * Queues the post of a challenge's first solve, if the webhook is on. Call it once the solve has
 * committed, for the challenge's first solve only; a second call for the same challenge adds nothing
 * while the first job is remembered (its id is the challenge's). Never throws, and waits at most the
 * queue's own deadline (app/infrastructure/queue.server.ts).
 */
export async function enqueueFirstBloodWebhook(event: FirstBlood): Promise<void> {
  try {
    if (!(await webhookIsOn())) return;
    await enqueue(
      "firstBloodWebhook",
      {
        kind: "first-blood",
        challengeId: event.challengeId,
        challengeTitle: event.challengeTitle,
        category: event.category,
        points: event.points,
        teamId: event.teamId,
        teamName: event.teamName,
        solvedAt: event.solvedAt.toISOString(),
      },
      { jobId: `first-blood-${event.challengeId}` },
    );
  } catch (error) {
    getLogger().warn({ err: error, challengeId: event.challengeId, teamId: event.teamId }, "first-blood webhook not queued: the solve stands, the chat is not told");
  }
}

/** Queues a test message (Settings' button); the toast's title. A refusal when no webhook is saved. */
export async function enqueueTestWebhook(): Promise<string> {
  if (!(await webhookIsOn())) throw new DomainError(messages.webhooks.needsUrl, { status: 400 });
  try {
    await enqueue("firstBloodWebhook", { kind: "test", requestedAt: new Date().toISOString() });
  } catch (error) {
    getLogger().warn({ err: error }, "webhook test message not queued");
    throw new DomainError(messages.webhooks.testNotQueued, { status: 503 });
  }
  return messages.webhooks.testQueued;
}
