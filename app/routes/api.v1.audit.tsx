import { AuditPageOutSchema } from "~/modules/api/schemas";
import { describeRecord, kindLabel } from "~/modules/audit/present";
import { auditPage } from "~/modules/audit/read.server";
import { auditQuerySchema, queryValues } from "~/modules/audit/schema";
import { getEventTimeZone } from "~/modules/settings/settings.server";
import { apiResource, parseFields, respond } from "~/glue/api.server";

// Callers must sign in: apiResource authenticates the caller (401 without a session or token) and applies this
// operation's roles from the catalogue (403) before the handler runs (app/glue/api.server.ts,
// app/modules/api/operations.ts); tests/integration/api-openapi.test.ts calls it as a visitor and as each role.
/** The audit trail: the dashboard audit page's filters and keyset cursors (?team=&user=&kind=&from=&to=&before=&after=&limit=). */
const resource = apiResource("/audit", {
  GET: async ({ request }) => {
    const timeZone = await getEventTimeZone();
    const { filter, position, limit } = parseFields(auditQuerySchema(timeZone), queryValues(new URL(request.url).searchParams));
    const page = await auditPage(filter, position, limit);
    return respond(AuditPageOutSchema, {
      records: page.records.map((record) => ({ ...record, kindLabel: kindLabel(record.kind), subject: describeRecord(record, timeZone).subject })),
      older: page.older,
      newer: page.newer,
    });
  },
});
export const loader = resource.loader;
export const action = resource.action;
