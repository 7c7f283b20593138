import { asc } from "drizzle-orm";
import { gates } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { isGateOpen } from "../challenges/visibility.server.ts";
import { sharedRead, type EventVersions } from "../event-data/shared.server.ts";

export interface GateView {
  number: number;
  title: string;
  description: string;
  opensAt: string;
  open: boolean;
}

/** The gates as stored, by number: read once per version when given the request's (app/modules/event-data/shared.server.ts). */
export const gateRows = sharedRead(["gates"], () => getDb().select().from(gates).orderBy(asc(gates.number)));

/** The five gates as the server sees them now: server time decides which are open. `versions`: see gateRows. */
export async function listGates(now = new Date(), versions: EventVersions | null = null): Promise<GateView[]> {
  const rows = await gateRows(versions);
  return rows.map((gate) => ({
    number: gate.number,
    title: gate.title,
    description: gate.description,
    opensAt: gate.opensAt.toISOString(),
    open: isGateOpen(gate.opensAt, now),
  }));
}
