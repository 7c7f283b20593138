import type { SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { useT } from "~/components/i18n";
import { useFormats } from "~/components/realtime/format";
import { useRevalidateOn } from "~/components/realtime/revalidate-on";
import { ActionButton } from "~/components/ui/action-button";
import { ErrorList, Field, SelectField, TextareaField } from "~/components/ui/field";
import { Message } from "~/components/ui/message";
import { useServerMessage } from "~/components/server-message";
import type { SignalsPageData } from "~/modules/integrity/signals.server";

/** What the page's action answers with a refusal: which form (and which row), and conform's reply (errors, what was typed). */
export interface SignalsAction {
  intent: string;
  id: string;
  result: SubmissionResult<string[]>;
}

const kinds = ["similar", "identical-file", "image", "flag-shared", "device-shared", "many-devices"] as const;
const statuses = ["open", "dismissed", "confirmed"] as const;
/** Each kind's and status's text key, written out (the translation files' check finds them in the code). */
const KIND_KEYS: Record<string, string> = {
  similar: "integrity.kinds.similar",
  "identical-file": "integrity.kinds.identicalFile",
  image: "integrity.kinds.image",
  "flag-shared": "integrity.kinds.flagShared",
  "device-shared": "integrity.kinds.deviceShared",
  "many-devices": "integrity.kinds.manyDevices",
};
const STATUS_KEYS: Record<string, string> = { open: "integrity.status.open", dismissed: "integrity.status.dismissed", confirmed: "integrity.status.confirmed" };

type Row = SignalsPageData["rows"][number];

/**
 * The integrity signals (docs/domain.md "Integrity signals"): the open ones strongest first, filtered by
 * challenge, team and kind; each dismissed with a reason or confirmed into a penalty award. Every form
 * works without JavaScript; a refusal comes back on its own row with what was typed.
 */
export function SignalsScreen({ data, answer }: { data: SignalsPageData; answer: SignalsAction | null }) {
  const { t } = useT();
  // New signals (the worker) and other admins' decisions show without a reload.
  useRevalidateOn("judging:changed");
  const { filter, rows, total, choices } = data;
  return (
    <section aria-labelledby="signals-title" className="stack dash-page signals-page">
      <h1 id="signals-title">{t("integrity.heading")}</h1>
      <p className="muted">{t("integrity.intro", { days: data.retentionDays })}</p>
      <Form method="get" className="dash-filters card" aria-label={t("integrity.filterLabel")}>
        <SelectField label={t("integrity.status.label")} selectProps={{ id: "signal-status", name: "status", defaultValue: filter.status ?? "open" }}>
          {statuses.map((status) => (
            <option key={status} value={status}>
              {t(STATUS_KEYS[status])}
            </option>
          ))}
        </SelectField>
        <SelectField label={t("integrity.challenge")} selectProps={{ id: "signal-challenge", name: "challenge", defaultValue: filter.challenge ?? "" }}>
          <option value="">{t("integrity.allChallenges")}</option>
          {choices.challenges.map((challenge) => (
            <option key={challenge.id} value={challenge.id}>
              {challenge.title}
            </option>
          ))}
        </SelectField>
        <SelectField label={t("integrity.team")} selectProps={{ id: "signal-team", name: "team", defaultValue: filter.team ?? "" }}>
          <option value="">{t("integrity.allTeams")}</option>
          {choices.teams.map((team) => (
            <option key={team.id} value={team.id}>
              {team.name}
            </option>
          ))}
        </SelectField>
        <SelectField label={t("integrity.kind")} selectProps={{ id: "signal-kind", name: "kind", defaultValue: filter.kind ?? "" }}>
          <option value="">{t("integrity.allKinds")}</option>
          {kinds.map((kind) => (
            <option key={kind} value={kind}>
              {t(KIND_KEYS[kind])}
            </option>
          ))}
        </SelectField>
        <ActionButton type="submit" variant="subtle">
          {t("integrity.filter")}
        </ActionButton>
        <a href="/dashboard/exports/signals.csv" download>
          {t("integrity.export")}
        </a>
      </Form>
      <section className="card" aria-labelledby="signal-list-heading">
        <h2 id="signal-list-heading">{t("integrity.listHeading", { count: total })}</h2>
        {rows.length === 0 ? <p>{t("integrity.none")}</p> : <ol className="signal-list">{rows.map((row) => <SignalItem key={row.id} row={row} timeZone={data.timeZone} answer={answer?.id === String(row.id) ? answer : null} />)}</ol>}
      </section>
      <Settings data={data} answer={answer} />
    </section>
  );
}

function SignalItem({ row, timeZone, answer }: { row: Row; timeZone: string; answer: SignalsAction | null }) {
  const { t } = useT();
  const format = useFormats();
  const serverMessage = useServerMessage();
  const typed = (answer?.result.initialValue ?? {}) as Record<string, string | undefined>;
  const errors = answer?.result.error ?? {};
  const when = (date: string | Date | null) => (date ? format.dayTime(new Date(date).toISOString(), timeZone) : "—");
  const details = row.details as Record<string, string | number | null>;
  return (
    <li className="signal card" data-signal-id={row.id}>
      <p className="signal__head">
        <strong dir="ltr" className="signal__strength">
          {row.kind === "many-devices" ? t("integrity.devicesCount", { count: Number(details.devices ?? row.similarity) }) : `${row.similarity} %`}
        </strong>{" "}
        {t(KIND_KEYS[row.kind] ?? row.kind)}
        {row.challenge ? (
          <>
            {" · "}
            <bdi>{row.challenge}</bdi>
          </>
        ) : null}
      </p>
      <p>
        <bdi>{row.team}</bdi>
        {row.otherTeam ? (
          <>
            {" ↔ "}
            <bdi>{row.otherTeam}</bdi>
          </>
        ) : null}
        <span className="muted">
          {" · "}
          {t("integrity.versions", { mine: when(row.versionAt), other: when(row.otherVersionAt), found: when(row.createdAt) })}
        </span>
        {row.submissionId ? (
          <>
            {" · "}
            <Link to={`/dashboard/judge?s=${row.submissionId}`}>{t("integrity.openEvidence")}</Link>
          </>
        ) : null}
      </p>
      {row.status !== "open" ? (
        <p className="muted">
          {t(STATUS_KEYS[row.status] ?? row.status)} — <bdi>{row.decidedBy ?? "—"}</bdi>, {when(row.decidedAt)}: <bdi>{row.reason}</bdi>
        </p>
      ) : (
        <div className="signal__actions">
          {answer && answer.result.error?.[""] ? <Message tone="error">{serverMessage(answer.result.error[""][0])}</Message> : null}
          <Form method="post" className="form signal__form">
            <input type="hidden" name="id" value={row.id} />
            <TextareaField
              label={t("integrity.dismissReason")}
              textareaProps={{ id: `dismiss-${row.id}`, name: "reason", rows: 2, required: true, maxLength: 1000, dir: "auto", defaultValue: answer?.intent === "dismiss" ? typed.reason : undefined }}
              errors={answer?.intent === "dismiss" ? errors.reason : undefined}
            />
            <ActionButton type="submit" name="intent" value="dismiss" variant="subtle">
              {t("integrity.dismiss")}
            </ActionButton>
          </Form>
          <Form method="post" className="form signal__form">
            <input type="hidden" name="id" value={row.id} />
            <SelectField
              label={t("integrity.penaltyTeam")}
              selectProps={{ id: `confirm-team-${row.id}`, name: "teamId", defaultValue: answer?.intent === "confirm" ? typed.teamId : String(row.teamId) }}
              errors={answer?.intent === "confirm" ? errors.teamId : undefined}
            >
              <option value={row.teamId}>{row.team}</option>
              {row.otherTeamId && row.otherTeam ? <option value={row.otherTeamId}>{row.otherTeam}</option> : null}
            </SelectField>
            <Field
              label={t("integrity.penaltyPoints")}
              inputProps={{ id: `confirm-points-${row.id}`, name: "points", inputMode: "decimal", dir: "ltr", required: true, autoComplete: "off", defaultValue: answer?.intent === "confirm" ? typed.points : undefined }}
              errors={answer?.intent === "confirm" ? errors.points : undefined}
            />
            <Field
              label={t("integrity.publicReason")}
              inputProps={{ id: `confirm-reason-${row.id}`, name: "publicReason", required: true, maxLength: 500, dir: "auto", defaultValue: answer?.intent === "confirm" ? typed.publicReason : t("integrity.defaultPublicReason") }}
              errors={answer?.intent === "confirm" ? errors.publicReason : undefined}
            />
            <p className="muted">{t("integrity.publicReasonHint")}</p>
            <ActionButton type="submit" name="intent" value="confirm" variant="danger">
              {t("integrity.confirm")}
            </ActionButton>
          </Form>
        </div>
      )}
    </li>
  );
}

function Settings({ data, answer }: { data: SignalsPageData; answer: SignalsAction | null }) {
  const { t } = useT();
  const typed = (answer?.result.initialValue ?? {}) as Record<string, string | undefined>;
  const errors = answer?.result.error ?? {};
  const mine = (intent: string, id = "") => answer?.intent === intent && answer.id === id;
  return (
    <>
      <section className="card" aria-labelledby="signal-thresholds-heading">
        <h2 id="signal-thresholds-heading">{t("integrity.thresholdsHeading")}</h2>
        <Form method="post" className="form">
          <div className="dash-grid">
            <Field
              label={t("integrity.similarityPercent")}
              inputProps={{ id: "similarity-percent", name: "similarityPercent", inputMode: "numeric", dir: "ltr", defaultValue: mine("thresholds") ? typed.similarityPercent : data.thresholds.similarityPercent }}
              errors={mine("thresholds") ? errors.similarityPercent : undefined}
            />
            <Field
              label={t("integrity.devicesPerAccount")}
              inputProps={{ id: "devices-per-account", name: "devicesPerAccount", inputMode: "numeric", dir: "ltr", defaultValue: mine("thresholds") ? typed.devicesPerAccount : data.thresholds.devicesPerAccount }}
              errors={mine("thresholds") ? errors.devicesPerAccount : undefined}
            />
          </div>
          <ActionButton type="submit" name="intent" value="thresholds" variant="subtle">
            {t("integrity.saveThresholds")}
          </ActionButton>
        </Form>
      </section>
      <section className="card" aria-labelledby="signal-starters-heading">
        <h2 id="signal-starters-heading">{t("integrity.startersHeading")}</h2>
        <p className="muted">{t("integrity.startersHint")}</p>
        {data.starters.map((challenge) => (
          <details key={challenge.id} open={mine("starter", String(challenge.id)) || mine("starter-file", String(challenge.id)) || challenge.files.some((file) => mine("starter-file-remove", String(file.id)))}>
            <summary>
              <bdi>{challenge.title}</bdi> {challenge.starter ? `· ${t("integrity.starterSet")}` : ""} {challenge.files.length > 0 ? `· ${t("integrity.starterFiles")} (${challenge.files.length})` : ""}
            </summary>
            <Form method="post" className="form">
              <input type="hidden" name="challengeId" value={challenge.id} />
              <TextareaField
                label={t("integrity.starter")}
                textareaProps={{ id: `starter-${challenge.id}`, name: "starter", rows: 6, dir: "ltr", defaultValue: mine("starter", String(challenge.id)) ? typed.starter : (challenge.starter ?? "") }}
                errors={mine("starter", String(challenge.id)) ? errors.starter : undefined}
              />
              <ErrorList errors={mine("starter", String(challenge.id)) ? errors.challengeId : undefined} />
              <ActionButton type="submit" name="intent" value="starter" variant="subtle">
                {t("integrity.saveStarter")}
              </ActionButton>
            </Form>
            <StarterFiles challenge={challenge} answer={answer} />
          </details>
        ))}
      </section>
    </>
  );
}

/** A challenge's starter files: each with its remove button, and the form adding one (multipart, works without JavaScript). */
function StarterFiles({ challenge, answer }: { challenge: SignalsPageData["starters"][number]; answer: SignalsAction | null }) {
  const { t } = useT();
  const errors = answer?.result.error ?? {};
  const adding = answer?.intent === "starter-file" && answer.id === String(challenge.id);
  return (
    <div className="stack">
      <h3>{t("integrity.starterFiles")}</h3>
      <p className="muted">{t("integrity.starterFilesHint")}</p>
      {challenge.files.length === 0 ? (
        <p>{t("integrity.starterFilesNone")}</p>
      ) : (
        <ul>
          {challenge.files.map((file) => (
            <li key={file.id}>
              <Form method="post">
                <input type="hidden" name="id" value={file.id} />
                <bdi>{file.name}</bdi> <span className="muted">({Math.max(1, Math.round(file.size / 1024))} KB)</span>{" "}
                <ActionButton type="submit" name="intent" value="starter-file-remove" variant="subtle" aria-label={t("integrity.removeStarterFile", { name: file.name })}>
                  {t("integrity.removeFile")}
                </ActionButton>
                <ErrorList errors={answer?.intent === "starter-file-remove" && answer.id === String(file.id) ? errors.id : undefined} />
              </Form>
            </li>
          ))}
        </ul>
      )}
      <Form method="post" encType="multipart/form-data" className="form">
        <input type="hidden" name="intent" value="starter-file" />
        <input type="hidden" name="challengeId" value={challenge.id} />
        <div className="field">
          <label className="field__label" htmlFor={`starter-file-${challenge.id}`}>
            {t("integrity.starterFile")}
          </label>
          <input id={`starter-file-${challenge.id}`} className="field__input" type="file" name="file" required aria-describedby={adding && errors.file ? `starter-file-${challenge.id}-error` : undefined} />
          <ErrorList id={`starter-file-${challenge.id}-error`} errors={adding ? errors.file : undefined} />
        </div>
        <ErrorList errors={adding ? errors.challengeId : undefined} />
        <ActionButton type="submit" variant="subtle">
          {t("integrity.addStarterFile")}
        </ActionButton>
      </Form>
    </div>
  );
}
