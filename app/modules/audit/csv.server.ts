/**
 * The audit trail as CSV (docs/domain.md "Audit trail"): every record of the current filters, newest
 * first, read by keyset a thousand at a time and written as it is read (csvStreamResponse), so the export
 * of a million records holds one chunk in memory. Cells a spreadsheet would run as a formula are defused
 * (app/modules/exports/csv-format.server.ts): names and comments come from users.
 */
import { csvHead, csvRows, type CsvCell } from "../exports/csv-format.server.ts";
import { changesText, presentRecord } from "./present.ts";
import { auditRecords } from "./read.server.ts";
import type { AuditFilter } from "./schema.ts";

export function auditCsvHeader(timeZone: string): string[] {
  return [
    "Record",
    "Time (UTC)",
    `Time (${timeZone})`,
    "Kind",
    "Change",
    "Actor id",
    "Actor",
    "Actor role",
    "Via",
    "Session id",
    "Token id",
    "IP",
    "Team id",
    "Team",
    "User id",
    "User",
    "Subject",
    "Title",
    "Changes",
    "Before (JSON)",
    "After (JSON)",
  ];
}

export async function* auditCsv(filter: AuditFilter, timeZone: string, chunk = 1000): AsyncGenerator<string> {
  yield csvHead(auditCsvHeader(timeZone));
  for await (const records of auditRecords(filter, chunk)) {
    yield csvRows(
      records.map((record): CsvCell[] => {
        const view = presentRecord(record, timeZone);
        return [
          record.id,
          view.at,
          view.atText,
          record.kind,
          view.kindLabel,
          record.actor.id,
          record.actor.name,
          record.actor.role,
          record.actor.via,
          record.actor.sessionId,
          record.actor.tokenId,
          record.actor.ip,
          record.team?.id,
          view.team?.name,
          record.user?.id,
          view.user?.name,
          view.subject,
          view.title,
          changesText(view),
          record.before ? JSON.stringify(record.before) : null,
          record.after ? JSON.stringify(record.after) : null,
        ];
      }),
    );
  }
}
