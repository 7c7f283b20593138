import { Form, Link } from "@remix-run/react";
import { useT } from "~/components/i18n";
import { useServerMessage } from "~/components/server-message";
import { ActionButton } from "~/components/ui/action-button";
import { Field, SelectField } from "~/components/ui/field";
import { Message } from "~/components/ui/message";
import { auditKinds, isAuditKind, type AuditKind } from "~/modules/audit/kinds";
import type { AuditRecordView } from "~/modules/audit/present";
import type { auditFilterChoices } from "~/modules/audit/read.server";
import { AUDIT_FILTER_FIELDS } from "~/modules/audit/schema";
import type { Role } from "~/modules/auth/access";
import { messages } from "~/modules/messages";
import { Folded, SideScroll } from "~/components/ui/side-scroll";

const m = messages.audit;

/** What the page's loader gives. */
export interface AuditTrailData {
  timeZone: string;
  choices: Awaited<ReturnType<typeof auditFilterChoices>>;
  /** The filter fields as typed (kept in the form, carried by the page links and the CSV link). */
  values: Record<string, string>;
  errors: Record<string, string[]>;
  records: AuditRecordView[];
  older: string | null;
  newer: string | null;
  paged: boolean;
}

/** This page's address with the filters as typed and, if given, a page cursor. */
function pageHref(values: AuditTrailData["values"], cursor?: { before?: string; after?: string }, path = "/dashboard/audit") {
  const params = new URLSearchParams();
  for (const field of AUDIT_FILTER_FIELDS) if (values[field]) params.set(field, values[field]);
  if (cursor?.before) params.set("before", cursor.before);
  if (cursor?.after) params.set("after", cursor.after);
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}

/** Every role has its group (a user missing from the list would drop the user filter on the next submit). */
const roleGroups = [
  { role: "admin", label: "auditPage.roleGroups.admin" },
  { role: "judge", label: "auditPage.roleGroups.judge" },
  { role: "mentor", label: "auditPage.roleGroups.mentor" },
  { role: "participant", label: "auditPage.roleGroups.participant" },
] as const satisfies ReadonlyArray<{ role: Role; label: string }>;

/** A role beside a name. */
const roleKeys: Record<Role, string> = {
  admin: "auditPage.roles.admin",
  judge: "auditPage.roles.judge",
  mentor: "auditPage.roles.mentor",
  participant: "auditPage.roles.participant",
};

/** Each kind of change in the page's language (the English is auditKinds', app/modules/audit/kinds.ts). */
const kindKeys: Record<AuditKind, string> = {
  "score.given": "auditPage.kinds.scoreGiven",
  "score.changed": "auditPage.kinds.scoreChanged",
  "submission.created": "auditPage.kinds.submissionCreated",
  "submission.updated": "auditPage.kinds.submissionUpdated",
  "challenge.created": "auditPage.kinds.challengeCreated",
  "challenge.updated": "auditPage.kinds.challengeUpdated",
  "challenge.status": "auditPage.kinds.challengeStatus",
  "challenge.deleted": "auditPage.kinds.challengeDeleted",
  "gate.changed": "auditPage.kinds.gateChanged",
  "event.final": "auditPage.kinds.eventFinal",
  "event.submissions-close": "auditPage.kinds.eventSubmissionsClose",
  "event.judging": "auditPage.kinds.eventJudging",
  "event.feedback": "auditPage.kinds.eventFeedback",
  "event.divisions": "auditPage.kinds.eventDivisions",
  "event.team-cap": "auditPage.kinds.eventTeamCap",
  "event.flags": "auditPage.kinds.eventFlags",
  "event.webhook": "auditPage.kinds.eventWebhook",
  "scoreboard.frozen": "auditPage.kinds.scoreboardFrozen",
  "scoreboard.unfrozen": "auditPage.kinds.scoreboardUnfrozen",
  "team.created": "auditPage.kinds.teamCreated",
  "team.renamed": "auditPage.kinds.teamRenamed",
  "team.division": "auditPage.kinds.teamDivision",
  "team.deleted": "auditPage.kinds.teamDeleted",
  "user.created": "auditPage.kinds.userCreated",
  "user.updated": "auditPage.kinds.userUpdated",
  "user.deleted": "auditPage.kinds.userDeleted",
  "session.ended": "auditPage.kinds.sessionEnded",
  "user.password-changed": "auditPage.kinds.userPasswordChanged",
  "user.password-set": "auditPage.kinds.userPasswordSet",
  "user.address-confirmed": "auditPage.kinds.userAddressConfirmed",
  "user.identity-bound": "auditPage.kinds.userIdentityBound",
  "mail.link-sent": "auditPage.kinds.mailLinkSent",
  "token.created": "auditPage.kinds.tokenCreated",
  "token.revoked": "auditPage.kinds.tokenRevoked",
  "import.accounts": "auditPage.kinds.importAccounts",
  "import.challenges": "auditPage.kinds.importChallenges",
  "flag.solved": "auditPage.kinds.flagSolved",
  "flag.attempts-reset": "auditPage.kinds.flagAttemptsReset",
  "flag.answers": "auditPage.kinds.flagAnswers",
  "flag.export": "auditPage.kinds.flagExport",
  "predictions.settings": "auditPage.kinds.predictionsSettings",
  "predictions.labels": "auditPage.kinds.predictionsLabels",
  "predictions.revealed": "auditPage.kinds.predictionsRevealed",
  "code.settings": "auditPage.kinds.codeSettings",
  "code.checker": "auditPage.kinds.codeChecker",
  "code.tests": "auditPage.kinds.codeTests",
  "code.rejudged": "auditPage.kinds.codeRejudged",
  "code.paused": "auditPage.kinds.codePaused",
  "code.resumed": "auditPage.kinds.codeResumed",
  "hint.unlocked": "auditPage.kinds.hintUnlocked",
  "award.given": "auditPage.kinds.awardGiven",
  "award.revoked": "auditPage.kinds.awardRevoked",
  "signal.dismissed": "auditPage.kinds.signalDismissed",
  "signal.confirmed": "auditPage.kinds.signalConfirmed",
  "signal.settings": "auditPage.kinds.signalSettings",
  "announcement.created": "auditPage.kinds.announcementCreated",
  "notification.sent": "auditPage.kinds.notificationSent",
  "videos.changed": "auditPage.kinds.videosChanged",
  "meal.added": "auditPage.kinds.mealAdded",
  "meal.removed": "auditPage.kinds.mealRemoved",
  "team.joined": "auditPage.kinds.teamJoined",
  "team.left": "auditPage.kinds.teamLeft",
  "team.member-removed": "auditPage.kinds.teamMemberRemoved",
  "team.invite-created": "auditPage.kinds.teamInviteCreated",
  "team.invite-revoked": "auditPage.kinds.teamInviteRevoked",
  "event.team-formation": "auditPage.kinds.eventTeamFormation",
  "event.participant-passwords": "auditPage.kinds.eventParticipantPasswords",
};

function Filters({ choices, values, errors }: Pick<AuditTrailData, "choices" | "values" | "errors">) {
  const teamListed = !values.team || choices.teams.some((team) => String(team.id) === values.team);
  const userListed = !values.user || choices.users.some((user) => String(user.id) === values.user);
  const { t } = useT();
  return (
    <Form method="get" className="dash-filters card audit-filters" aria-label={t("auditPage.filterLabel")}>
      <SelectField label={t("auditPage.team")} selectProps={{ id: "audit-team", name: "team", defaultValue: values.team }} errors={errors.team}>
        <option value="">{t("auditPage.allTeams")}</option>
        {/* A deleted team's id (from a link) stays chosen. */}
        {teamListed ? null : <option value={values.team}>{t("auditPage.teamNumber", { id: values.team })}</option>}
        {choices.teams.map((team) => (
          <option key={team.id} value={team.id}>
            {team.name}
          </option>
        ))}
      </SelectField>
      <SelectField label={t("auditPage.user")} selectProps={{ id: "audit-user", name: "user", defaultValue: values.user }} errors={errors.user}>
        <option value="">{t("auditPage.allUsers")}</option>
        {userListed ? null : <option value={values.user}>{t("auditPage.userNumber", { id: values.user })}</option>}
        {roleGroups.map((group) => (
          <optgroup key={group.role} label={t(group.label)}>
            {choices.users
              .filter((user) => user.role === group.role)
              .map((user) => (
                <option key={user.id} value={user.id}>
                  {user.name}
                </option>
              ))}
          </optgroup>
        ))}
      </SelectField>
      <SelectField label={t("auditPage.kind")} selectProps={{ id: "audit-kind", name: "kind", defaultValue: values.kind }} errors={errors.kind}>
        <option value="">{t("auditPage.everyChange")}</option>
        {Object.keys(auditKinds).map((kind) => (
          <option key={kind} value={kind}>
            {t(kindKeys[kind as AuditKind])}
          </option>
        ))}
      </SelectField>
      <Field label={t("auditPage.from")} inputProps={{ id: "audit-from", name: "from", type: "datetime-local", step: 1, defaultValue: values.from }} errors={errors.from} />
      <Field label={t("auditPage.to")} inputProps={{ id: "audit-to", name: "to", type: "datetime-local", step: 1, defaultValue: values.to }} errors={errors.to} />
      {values.limit ? <input type="hidden" name="limit" value={values.limit} /> : null}
      <div className="dash-form-actions audit-filters__actions">
        <ActionButton type="submit" variant="subtle">
          {t("auditPage.filter")}
        </ActionButton>
        <Link to="/dashboard/audit">{t("auditPage.clear")}</Link>
      </div>
    </Form>
  );
}

/**
 * The fields the records carry, in the page's language (the English is app/modules/audit/present.ts's
 * fieldLabel of the stored key); a field not listed shows as stored.
 */
const fieldKeys: Record<string, string> = {
  name: "auditPage.fields.name",
  title: "auditPage.fields.title",
  titleAr: "auditPage.fields.titleAr",
  team: "auditPage.fields.team",
  teamId: "auditPage.fields.teamId",
  points: "auditPage.fields.points",
  reason: "auditPage.fields.reason",
  category: "auditPage.fields.category",
  revokedAt: "auditPage.fields.revokedAt",
  revoked: "auditPage.fields.revoked",
  division: "auditPage.fields.division",
  divisions: "auditPage.fields.divisions",
  divisionsSet: "auditPage.fields.divisionsSet",
  prefix: "auditPage.fields.prefix",
  role: "auditPage.fields.role",
  wave: "auditPage.fields.wave",
  difficulty: "auditPage.fields.difficulty",
  status: "auditPage.fields.status",
  attachment: "auditPage.fields.attachment",
  challenge: "auditPage.fields.challenge",
  challengeId: "auditPage.fields.challengeId",
  challengeIds: "auditPage.fields.challengeIds",
  wrongAnswersCounted: "auditPage.fields.wrongAnswersCounted",
  teams: "auditPage.fields.teams",
  fileKey: "auditPage.fields.fileKey",
  fileName: "auditPage.fields.fileName",
  fileSize: "auditPage.fields.fileSize",
  textLength: "auditPage.fields.textLength",
  score: "auditPage.fields.score",
  comment: "auditPage.fields.comment",
  criteria: "auditPage.fields.criteria",
  submissionScore: "auditPage.fields.submissionScore",
  gate: "auditPage.fields.gate",
  gates: "auditPage.fields.gates",
  description: "auditPage.fields.description",
  descriptionAr: "auditPage.fields.descriptionAr",
  opensAt: "auditPage.fields.opensAt",
  finalAt: "auditPage.fields.finalAt",
  submissionsCloseAt: "auditPage.fields.submissionsCloseAt",
  judgesPerSubmission: "auditPage.fields.judgesPerSubmission",
  blind: "auditPage.fields.blind",
  teamSizeCap: "auditPage.fields.teamSizeCap",
  flagWrongPerMinute: "auditPage.fields.flagWrongPerMinute",
  checking: "auditPage.fields.checking",
  wrongPerMinute: "auditPage.fields.wrongPerMinute",
  maxAttempts: "auditPage.fields.maxAttempts",
  count: "auditPage.fields.count",
  kinds: "auditPage.fields.kinds",
  webhook: "auditPage.fields.webhook",
  host: "auditPage.fields.host",
  format: "auditPage.fields.format",
  secretIssued: "auditPage.fields.secretIssued",
  frozen: "auditPage.fields.frozen",
  frozenAt: "auditPage.fields.frozenAt",
  sessionsEnded: "auditPage.fields.sessionsEnded",
  message: "auditPage.fields.message",
  messageAr: "auditPage.fields.messageAr",
  content: "auditPage.fields.content",
  contentAr: "auditPage.fields.contentAr",
  label: "auditPage.fields.label",
  at: "auditPage.fields.at",
  created: "auditPage.fields.created",
  captain: "auditPage.fields.captain",
  purpose: "auditPage.fields.purpose",
  member: "auditPage.fields.member",
  inviteId: "auditPage.fields.inviteId",
  expiresAt: "auditPage.fields.expiresAt",
  selfFormedTeams: "auditPage.fields.selfFormedTeams",
  teamsLocked: "auditPage.fields.teamsLocked",
  teamsCreated: "auditPage.fields.teamsCreated",
  users: "auditPage.fields.users",
  file: "auditPage.fields.file",
  awards: "auditPage.fields.awards",
  video1: "auditPage.fields.video1",
  video2: "auditPage.fields.video2",
  registrationId: "auditPage.fields.registrationId",
};

function Changes({ record }: { record: AuditRecordView }) {
  const { t, language } = useT();
  // A field not listed above: its English label, or in another language the stored key itself, as code.
  const label = (change: AuditRecordView["changed"][number]) =>
    fieldKeys[change.field] ? t(fieldKeys[change.field]) : language === "en" ? change.label : <code dir="ltr">{change.field}</code>;
  if (record.changed.length === 0 && record.unchanged.length === 0) return <span className="audit-muted">—</span>;
  return (
    <>
      {/* Values as they were recorded (data-recorded): the trail's evidence, shown as stored in either language. */}
      <ul className="audit-changes">
        {record.changed.map((change) => (
          <li key={change.field}>
            <span className="audit-changes__field">{label(change)}</span>{" "}
            {record.mode === "created" ? (
              <ins dir="auto" data-recorded>{change.after}</ins>
            ) : record.mode === "deleted" ? (
              <del dir="auto" data-recorded>{change.before}</del>
            ) : (
              <>
                <span className="audit-changes__old" dir="auto" data-recorded>
                  {change.before}
                </span>
                <span aria-hidden="true">{t("auditPage.arrow")}</span>
                <span className="visually-hidden"> {t("auditPage.changedTo")} </span>
                <ins dir="auto" data-recorded>{change.after}</ins>
              </>
            )}
          </li>
        ))}
      </ul>
      {record.unchanged.length ? (
        <details className="audit-unchanged">
          <summary>{t("auditPage.unchanged", { count: record.unchanged.length })}</summary>
          <ul className="audit-changes">
            {record.unchanged.map((change) => (
              <li key={change.field}>
                <span className="audit-changes__field">{label(change)}</span> <span dir="auto" data-recorded>{change.after}</span>
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </>
  );
}

/** What a record is about ("Submission #42"), in the page's language. */
function subjectText(record: AuditRecordView, t: ReturnType<typeof useT>["t"], serverMessage: (text: string) => string): string {
  const english = m.subjects[record.kind.split(".")[0]];
  const noun = english ? serverMessage(english) : isAuditKind(record.kind) ? t(kindKeys[record.kind]) : record.kind;
  return record.subjectId === null ? noun : t("auditPage.subjectNumber", { noun, id: record.subjectId });
}

/** How the change came: "session", "API token #3", "system". */
function viaText(actor: AuditRecordView["actor"], serverMessage: (text: string) => string): string {
  const via = serverMessage(m.via[actor.viaKind] ?? actor.viaKind);
  return actor.viaKind === "token" && actor.tokenId !== null ? `${via} #${actor.tokenId}` : via;
}

function Records({ records }: { records: AuditRecordView[] }) {
  const { t } = useT();
  const serverMessage = useServerMessage();
  return (
    <SideScroll role="region" aria-labelledby="audit-records-heading" tabIndex={0}>
      <table className="table audit-table">
        <thead>
          <tr>
            <th scope="col">{t("auditPage.when")}</th>
            <th scope="col" data-priority="2">{t("auditPage.change")}</th>
            <th scope="col" data-priority="3">{t("auditPage.who")}</th>
            <th scope="col" data-priority="3">{t("auditPage.team")}</th>
            <th scope="col">{t("auditPage.what")}</th>
            <th scope="col" data-priority="2">{t("auditPage.beforeAfter")}</th>
          </tr>
        </thead>
        <tbody>
          {records.map((record) => {
            const change = isAuditKind(record.kind) ? t(kindKeys[record.kind]) : record.kindLabel;
            const who = (
              <>
              {record.actor.id !== null ? (
                <Link to={`?user=${record.actor.id}`} title={t("auditPage.userHistory")}>
                  <bdi>{record.actor.name}</bdi>
                </Link>
              ) : (
                <bdi>{record.actor.name}</bdi>
              )}
              <span className="audit-meta">
                {[record.actor.role ? t(roleKeys[record.actor.role]) : null, t("auditPage.via", { via: viaText(record.actor, serverMessage) })].filter(Boolean).join(" · ")}
                {/* An address is a value, left to right in either language (an IPv6 one has letters). */}
                {record.actor.ip ? (
                  <>
                    {" · "}
                    <bdi dir="ltr">{record.actor.ip}</bdi>
                  </>
                ) : null}
              </span>
              </>
            );
            const team = (
              <>
              {record.team ? (
                <Link to={`?team=${record.team.id}`} title={t("auditPage.teamHistory")}>
                  {record.team.deleted ? t("auditPage.deletedTeam", { id: record.team.id }) : <bdi>{record.team.name}</bdi>}
                </Link>
              ) : (
                <span className="audit-muted">—</span>
              )}
              </>
            );
            return (
            <tr key={record.id} data-audit-id={record.id}>
              <td className="audit-when">
                <time dateTime={record.at}>{record.atText}</time>
                <Folded
                  lines={[
                    { label: t("auditPage.change"), value: change, priority: 2 },
                    { label: t("auditPage.beforeAfter"), value: <Changes record={record} />, priority: 2 },
                    { label: t("auditPage.who"), value: who, priority: 3 },
                    { label: t("auditPage.team"), value: team, priority: 3 },
                  ]}
                />
              </td>
              <td data-priority="2">{change}</td>
              <td data-priority="3">{who}</td>
              <td data-priority="3">{team}</td>
              <td>
                {subjectText(record, t, serverMessage)}
                {record.title ? (
                  <span className="audit-meta">
                    <bdi>{record.title}</bdi>
                  </span>
                ) : null}
                {record.user ? (
                  <span className="audit-meta">
                    {t("auditPage.about")}{" "}
                    <Link to={`?user=${record.user.id}`}>
                      {record.user.deleted ? t("auditPage.deletedUser", { id: record.user.id }) : <bdi>{record.user.name}</bdi>}
                    </Link>
                  </span>
                ) : null}
              </td>
              <td className="audit-diff" data-priority="2">
                <Changes record={record} />
              </td>
            </tr>
            );
          })}
        </tbody>
      </table>
    </SideScroll>
  );
}

/** Dashboard → Audit trail: the filters, a page of records newest first, the pager and the CSV link. */
export function AuditTrailScreen({ timeZone, choices, values, errors, records, older, newer, paged }: AuditTrailData) {
  const invalid = Object.keys(errors).length > 0;
  const { t } = useT();
  const serverMessage = useServerMessage();
  return (
    <section aria-labelledby="audit-title" className="stack dash-page audit-page">
      <h1 id="audit-title">{t("auditPage.heading")}</h1>
      <p>{t("auditPage.intro", { zone: timeZone })}</p>
      <Filters choices={choices} values={values} errors={errors} />
      {invalid ? (
        <Message tone="error">{serverMessage(m.filtersInvalid)}</Message>
      ) : (
        // Not a landmark itself: the table's scrolling region below carries the heading's name (one region per name).
        <section className="card stack">
          <div className="audit-heading">
            <h2 id="audit-records-heading">{t("auditPage.records")}</h2>
            <a href={pageHref(values, undefined, "/dashboard/exports/audit.csv")} download>
              {t("auditPage.downloadCsv")}
            </a>
          </div>
          {records.length === 0 ? <p>{serverMessage(paged ? m.noOlder : m.none)}</p> : <Records records={records} />}
          <nav aria-label={t("auditPage.pagesLabel")} className="audit-pager">
            {paged ? <Link to={pageHref(values)}>{t("auditPage.newest")}</Link> : null}
            {newer ? (
              <Link to={pageHref(values, { after: newer })} rel="prev">
                {t("auditPage.newer")}
              </Link>
            ) : null}
            {older ? (
              <Link to={pageHref(values, { before: older })} rel="next">
                {t("auditPage.older")}
              </Link>
            ) : null}
          </nav>
        </section>
      )}
    </section>
  );
}
