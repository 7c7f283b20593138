/**
 * Blind judging (docs/domain.md "Judging"): while the event setting is on, judges (not admins) see a team
 * as an opaque label that stays the same for the team, and no member name or file name; the work itself is
 * unchanged (a team that signs its answer signs it). Turning the setting off publishes the names.
 */
import { createHmac } from "node:crypto";
import { getEnv } from "../../infrastructure/env.server.ts";
import type { Role } from "../auth/access.ts";

const ALPHABET = "ABCDEFGHJKMNPQRSTVWXYZ23456789";

/** The team's label for blind judges: "Team " and six characters from a keyed hash of its id, not guessable from the id. */
export function anonymousTeamName(teamId: number): string {
  const digest = createHmac("sha256", getEnv().SESSION_SECRET).update(`blind-team:${teamId}`).digest();
  let label = "";
  for (let index = 0; index < 6; index += 1) label += ALPHABET[digest[index] % ALPHABET.length];
  return `Team ${label}`;
}

/** A file name without what a team may have put in it: only its extension is kept. */
export function anonymousFileName(name: string): string {
  const extension = /\.([A-Za-z0-9]{1,10})$/.exec(name)?.[1];
  return extension ? `file.${extension.toLowerCase()}` : "file";
}

export function hidesNames(settings: { blind: boolean }, role: Role): boolean {
  return settings.blind && role === "judge";
}

/**
 * A list sorted by a name the reader may not see: it goes in submission order (oldest first) instead. A
 * list read a page at a time must be put in that order before it is cut into pages (in SQL), or which rows
 * share a page would give the names' order away.
 */
export function sortsByHiddenName(blind: boolean, sort: string | undefined): boolean {
  return blind && (sort === "team" || sort === "user");
}

/**
 * Rows of a list a judge reads, with team and member names hidden when judging is blind; a list sorted by
 * team or member name would give the names' order away, so it is put in submission order instead.
 */
export function blindList<Row extends { id: number; teamId: number; team: string; user?: string | null; fileName?: string | null }>(
  rows: Row[],
  blind: boolean,
  sort: string | undefined,
  options: { keepTeamIds?: boolean } = {},
): Row[] {
  if (!blind) return rows;
  const ordered = sortsByHiddenName(blind, sort) ? [...rows].sort((a, b) => a.id - b.id) : rows;
  return blindRows(ordered, true, options);
}

/**
 * Rows of a list a judge reads, with team and member names hidden when judging is blind. The pages send
 * no team id either (0); the API keeps it (docs/domain.md says what blind judging does not hide).
 */
export function blindRows<Row extends { teamId: number; team: string; user?: string | null; fileName?: string | null }>(
  rows: Row[],
  blind: boolean,
  options: { keepTeamIds?: boolean } = {},
): Row[] {
  if (!blind) return rows;
  return rows.map((row) => ({
    ...row,
    team: anonymousTeamName(row.teamId),
    teamId: options.keepTeamIds ? row.teamId : 0,
    ...("user" in row ? { user: null } : {}),
    ...(row.fileName ? { fileName: anonymousFileName(row.fileName) } : {}),
  }));
}
