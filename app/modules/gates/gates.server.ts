import { asc } from "drizzle-orm";
import { gates } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { isGateOpen } from "../challenges/visibility.server.ts";
import { sharedRead, type EventVersions } from "../event-data/shared.server.ts";
import { CONTENT_TEXTS, shownIn } from "../i18n/content.ts";
import type { Language } from "../i18n/i18n.ts";

export interface GateView {
  number: number;
  title: string;
  description: string;
  /** The Arabic beside the English (null: none): docs/domain.md "Event content in two languages". */
  titleAr: string | null;
  descriptionAr: string | null;
  opensAt: string;
  open: boolean;
}

/**
 * The gates as stored, by number, both languages: read once per version when given the request's
 * (app/modules/event-data/shared.server.ts); one entry serves every language (nothing is picked here).
 */
export const gateRows = sharedRead(["gates"], () => getDb().select().from(gates).orderBy(asc(gates.number)));

/** The five gates as the server sees them now, both languages: server time decides which are open. `versions`: see gateRows. */
export async function listGates(now = new Date(), versions: EventVersions | null = null): Promise<GateView[]> {
  const rows = await gateRows(versions);
  return rows.map((gate) => ({
    number: gate.number,
    title: gate.title,
    description: gate.description,
    titleAr: gate.titleAr,
    descriptionAr: gate.descriptionAr,
    opensAt: gate.opensAt.toISOString(),
    open: isGateOpen(gate.opensAt, now),
  }));
}

/** The gates as a viewer of `language` reads them (one language). */
export async function listGatesIn(language: Language, now = new Date(), versions: EventVersions | null = null) {
  return (await listGates(now, versions)).map((gate) => shownIn(gate, language, CONTENT_TEXTS.gate));
}
