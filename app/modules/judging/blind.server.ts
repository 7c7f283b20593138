/**
 * Blind judging, in one place (docs/domain.md "Judging"): while the event setting is on, judges (not admins)
 * see a team as an opaque label that stays the same for the team, and no member name or file name; the work
 * itself is unchanged (a team that signs its answer signs it). Turning the setting off publishes the names.
 *
 * Every place that shows a judge a name asks this module, never the setting: it reads the setting and the
 * viewer's role once (`namesShownTo`, or `namesView` with settings already read) and answers a view that
 * says what that viewer reads: the workspace and its queue and history, the submissions table, the API's
 * submission list and score answer (no team id there either), a file's name (shown inline, downloaded),
 * and whether the API's reads of one team (`/teams/{id}/…`) are open to them (`refuseTeamReads`: 403
 * while names are hidden). No caller decides by itself.
 *
 * A list sorted by a name the viewer may not see goes in submission order (oldest first) instead, or its
 * order would give the names away. That order is written here twice, side by side, and nowhere else:
 * `inSubmissionOrder` for rows in hand (the API's list) and `submissionOrderSql` for a list cut into pages
 * in SQL (the dashboard's table: the pages must be cut in that order, or which rows share a page would tell
 * the names' order). tests/integration/blind-judging.test.ts checks that the two agree.
 */
import { createHmac } from "node:crypto";
import { asc, type SQL } from "drizzle-orm";
import { submissions } from "../../../db/schema.ts";
import { getEnv } from "../../infrastructure/env.server.ts";
import type { Role } from "../auth/access.ts";
import { DomainError } from "../errors.ts";
import { messages } from "../messages.ts";
import { getJudgingSettings, type JudgingSettings } from "./settings.server.ts";
import type { SubmissionForJudge } from "./workspace.server.ts";

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

/** Whose view of the names the setting changes: judges'. */
function mayBeBlind(viewer: { role: Role }): boolean {
  return viewer.role === "judge";
}

/** The rule itself: names are hidden from judges while judging is blind; admins (and everyone else) read them. */
function hidesNames(settings: Pick<JudgingSettings, "blind">, viewer: { role: Role }): boolean {
  return settings.blind && mayBeBlind(viewer);
}

/** The sorts of the submission lists that order by a name (the team's, the member's). */
const NAME_SORTS: ReadonlySet<string | undefined> = new Set(["team", "user"]);

/** Submission order, oldest first, for rows in hand: what a list sorted by a hidden name is put in. */
export function inSubmissionOrder<Row extends { id: number }>(rows: readonly Row[]): Row[] {
  return [...rows].sort((a, b) => a.id - b.id);
}

/** The same order as SQL ORDER BY terms, for a query over `submissions` (a list cut into pages). */
export const submissionOrderSql: readonly SQL[] = [asc(submissions.id)];

/** A row of a list that names a team, and maybe its member and a file. */
export interface NamedRow {
  teamId: number;
  team: string;
  user?: string | null;
  fileName?: string | null;
}

/** What one viewer reads of the names, under the event's blind-judging setting. */
export interface NamesView {
  /** Names are hidden from this viewer: the pages say so ("a team member", the blind note). */
  readonly hidden: boolean;
  /**
   * A list sorted by `sort` goes in submission order instead (before it is cut into pages: in SQL, by
   * `submissionOrderSql`).
   */
  ordersById(sort: string | undefined): boolean;
  /**
   * Rows as this viewer reads them: team label, no member name, `file.<extension>`, and no team id (0).
   */
  rows<Row extends NamedRow>(rows: Row[]): Row[];
  /** A list sorted by `sort`, as this viewer reads it: its rows, and in submission order when sorted by a hidden name. */
  list<Row extends NamedRow & { id: number }>(rows: Row[], sort: string | undefined): Row[];
  /** The API's list: as `list`, with a hidden team id sent as null (docs/API.md). */
  apiList<Row extends NamedRow & { id: number }>(rows: Row[], sort: string | undefined): (Omit<Row, "teamId"> & { teamId: number | null })[];
  /** A team id as the API sends it to this viewer: null where names are hidden (an id names the team through `/teams`). */
  teamId(teamId: number): number | null;
  /** The workspace's submission as this viewer reads it: no team, member or file name, in it or its versions. */
  submission(submission: SubmissionForJudge): SubmissionForJudge;
  /** A file's name as this viewer reads it (the name of a download or of a file shown inline). */
  fileName(name: string): string;
}

const namesShown: NamesView = {
  hidden: false,
  ordersById: () => false,
  rows: (rows) => rows,
  list: (rows) => rows,
  apiList: (rows) => rows,
  teamId: (teamId) => teamId,
  submission: (submission) => submission,
  fileName: (name) => name,
};

const namesHidden: NamesView = {
  hidden: true,
  ordersById: (sort) => NAME_SORTS.has(sort),
  rows: (rows) =>
    rows.map((row) => ({
      ...row,
      team: anonymousTeamName(row.teamId),
      teamId: 0,
      ...("user" in row ? { user: null } : {}),
      ...(row.fileName ? { fileName: anonymousFileName(row.fileName) } : {}),
    })),
  list: (rows, sort) => namesHidden.rows(namesHidden.ordersById(sort) ? inSubmissionOrder(rows) : rows),
  apiList: (rows, sort) => namesHidden.list(rows, sort).map((row) => ({ ...row, teamId: null })),
  teamId: () => null,
  submission: (submission) => ({
    ...submission,
    team: anonymousTeamName(submission.teamId),
    teamId: 0,
    user: null,
    file: submission.file ? { ...submission.file, name: anonymousFileName(submission.file.name) } : null,
    versions: submission.versions.map((version) => ({
      ...version,
      user: null,
      file: version.file ? { ...version.file, name: anonymousFileName(version.file.name) } : null,
    })),
  }),
  fileName: anonymousFileName,
};

/** What this viewer reads of the names, with the judging settings already in hand. */
export function namesView(settings: Pick<JudgingSettings, "blind">, viewer: { role: Role }): NamesView {
  return hidesNames(settings, viewer) ? namesHidden : namesShown;
}

/** What this viewer reads of the names now (reads the event's setting, for a judge only: nobody else's view depends on it). */
export async function namesShownTo(viewer: { role: Role }): Promise<NamesView> {
  return mayBeBlind(viewer) ? namesView(await getJudgingSettings(), viewer) : namesShown;
}

/**
 * The API's reads of one team by its id (`/teams/{id}/…`: its submissions, scores, awards) would name the
 * team a judge scores under a label: refused (403, with the sentence) while names are hidden from this viewer.
 */
export async function refuseTeamReads(viewer: { role: Role }): Promise<void> {
  if ((await namesShownTo(viewer)).hidden) throw new DomainError(messages.api.blindTeam, { status: 403 });
}
