import { asc } from "drizzle-orm";
import { gates } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { isGateOpen } from "../challenges/visibility.server.ts";

export interface GateView {
  number: number;
  title: string;
  description: string;
  opensAt: string;
  open: boolean;
}

/** The five gates as the server sees them now: server time decides which are open. */
export async function listGates(now = new Date()): Promise<GateView[]> {
  const rows = await getDb().select().from(gates).orderBy(asc(gates.number));
  return rows.map((gate) => ({
    number: gate.number,
    title: gate.title,
    description: gate.description,
    opensAt: gate.opensAt.toISOString(),
    open: isGateOpen(gate.opensAt, now),
  }));
}
