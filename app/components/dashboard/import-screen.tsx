import { withCode } from "~/components/ui/with-code";
import { Form, Link, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import { useT } from "~/components/i18n";
import { difficultyLabel } from "~/components/participant/category";
import { useServerMessage } from "~/components/server-message";
import { ActionButton } from "~/components/ui/action-button";
import { Message } from "~/components/ui/message";
import type { AccountsCheck } from "~/modules/imports/accounts-import.server";
import type { ChallengesCheck } from "~/modules/imports/challenges-import.server";
import type { ImportCheck, ImportDone, ImportPreview } from "~/modules/imports/import-flow.server";
import { ACCOUNT_COLUMNS, CHALLENGE_COLUMNS, MAX_IMPORT_ROWS, type ImportKind } from "~/modules/imports/schema";
import { messages } from "~/modules/messages";
import { SideScroll } from "~/components/ui/side-scroll";

const m = messages.imports;

const accountExample = "team,name,role,password,email,language\nPhoenix,amina,participant,,amina@example.org,ar\nPhoenix,yacine,participant,a-chosen-password,,\n,judge.lina,judge,,,";
const challengeExample =
  'title,description,points,category,difficulty,hints,wave,checking,answers,max_attempts,scoring,minimum_points,decay,paid_hints,prerequisites\n"Cipher","Decode the message",100,CS,Medium,"Think Caesar",1,,,,,,,,\n"Warm-up","Find the flag",500,CS,Easy,,1,flag,"exact: GK{warm-up}\nany case: gk{warm up}",10,dynamic,100,20,"25 | Look at the logs",Cipher';

function UploadForm({
  kind,
  title,
  columnsLabel,
  columns,
  rules,
  example,
  accept,
}: {
  kind: ImportKind;
  title: string;
  columnsLabel: string;
  columns: readonly string[];
  rules: string;
  example: string;
  accept: string;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("kind") === kind;
  const { t } = useT();
  return (
    <section className="card stack" aria-labelledby={`import-${kind}-heading`}>
      <h2 id={`import-${kind}-heading`}>{title}</h2>
      <p>
        {columnsLabel}{" "}
        <bdi dir="ltr" className="import-columns">
          {columns.join(", ")}
        </bdi>
        . {withCode(rules)} {t("importPage.upload.rules", { max: MAX_IMPORT_ROWS })}
      </p>
      <details>
        <summary>{t("importPage.upload.example")}</summary>
        <pre className="import-example" dir="ltr">
          {example}
        </pre>
      </details>
      <Form method="post" encType="multipart/form-data" className="form">
        <input type="hidden" name="kind" value={kind} />
        {/* Before the file: a file refused as too large still comes back with its step and its message. */}
        <input type="hidden" name="intent" value="preview" />
        <div className="field">
          <label className="field__label" htmlFor={`import-${kind}-file`}>
            {t("importPage.upload.file")}
          </label>
          <input id={`import-${kind}-file`} name="file" type="file" accept={accept} required className="field__input" />
        </div>
        <ActionButton type="submit" disabled={busy}>
          {busy ? t("importPage.upload.reading") : t("importPage.upload.preview")}
        </ActionButton>
      </Form>
    </section>
  );
}

function Issues({ check }: { check: ImportCheck }) {
  const { t } = useT();
  const serverMessage = useServerMessage();
  if (check.fileError) return <Message tone="error">{messages.dashboard.warn(serverMessage(check.fileError))}</Message>;
  if (!check.issues.length) return null;
  return (
    <>
      {/* Messages built from values stay English for now (decision 025): isolated, they read in order in Arabic too. */}
      <Message tone="error">
        <bdi>{m.rowsInvalid(check.issues.length)}</bdi>
      </Message>
      {/* Focusable, as the tables below: nothing in them is, and on a phone they scroll. */}
      <SideScroll role="region" aria-labelledby="import-errors-caption" tabIndex={0}>
        <table className="table import-errors">
          <caption id="import-errors-caption" className="visually-hidden">
            {t("importPage.issues.caption")}
          </caption>
          <thead>
            <tr>
              <th scope="col">{t("importPage.row")}</th>
              <th scope="col">{t("importPage.issues.problems")}</th>
            </tr>
          </thead>
          <tbody>
            {check.issues.map((issue) => (
              <tr key={issue.row} data-row={issue.row}>
                <td>{t("importPage.issues.row", { row: issue.row })}</td>
                <td>
                  <ul className="list-reset">
                    {issue.messages.map((message) => (
                      <li key={message}>
                        <bdi>{serverMessage(message)}</bdi>
                      </li>
                    ))}
                  </ul>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </SideScroll>
    </>
  );
}

interface Column<Row> {
  label: string;
  cell: (row: Row) => ReactNode;
  className?: string;
}

/** The rows a preview read, one column per field it will write. */
function RowsTable<Row extends { row: number }>({ caption, columns, rows }: { caption: string; columns: Array<Column<Row>>; rows: Row[] }) {
  const { t } = useT();
  return (
    <table className="table">
      <caption id="import-rows-caption" className="visually-hidden">
        {caption}
      </caption>
      <thead>
        <tr>
          <th scope="col">{t("importPage.row")}</th>
          {columns.map((column) => (
            <th key={column.label} scope="col">
              {column.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.row}>
            <td>{row.row}</td>
            {columns.map((column) => (
              <td key={column.label} className={column.className}>
                {column.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

type T = ReturnType<typeof useT>["t"];

/** Each role's name on the screen (the English is roleLabels' in app/modules/users/schema.ts). */
const roleKeys: Record<string, string> = {
  admin: "usersPage.roles.admin",
  judge: "usersPage.roles.judge",
  participant: "usersPage.roles.participant",
  mentor: "usersPage.roles.mentor",
};

const accountColumns = (t: T): Array<Column<AccountsCheck["rows"][number]>> => [
  { label: t("importPage.name"), cell: (row) => <bdi>{row.name}</bdi> },
  { label: t("importPage.role"), cell: (row) => (roleKeys[row.role] ? t(roleKeys[row.role]!) : row.role) },
  {
    label: t("importPage.team"),
    cell: (row) => (
      <>
        {row.team ? <bdi>{row.team}</bdi> : "—"}
        {row.newTeam ? <span className="muted"> ({t("importPage.newTeam")})</span> : null}
      </>
    ),
  },
  { label: t("importPage.preview.division"), cell: (row) => (row.division ? <bdi>{row.division}</bdi> : "—") },
  { label: t("importPage.email"), cell: (row) => (row.email ? <bdi dir="ltr">{row.email}</bdi> : "—") },
  { label: t("importPage.password"), cell: (row) => (row.passwordGiven ? t("importPage.fromFile") : row.linkMailed ? t("importPage.preview.linkMailed") : t("importPage.preview.generated")) },
];

const challengeColumns = (t: T): Array<Column<ChallengesCheck["rows"][number]>> => [
  { label: t("importPage.preview.challengeTitle"), cell: (row) => <bdi>{row.title}</bdi> },
  { label: t("importPage.preview.challengeTitleAr"), cell: (row) => (row.titleAr ? <bdi lang="ar">{row.titleAr}</bdi> : "—") },
  { label: t("importPage.preview.category"), cell: (row) => row.category },
  { label: t("importPage.preview.points"), cell: (row) => row.points, className: "num" },
  { label: t("importPage.preview.wave"), cell: (row) => row.wave ?? t("importPage.preview.draft") },
  { label: t("importPage.preview.difficulty"), cell: (row) => difficultyLabel(row.difficulty, t) },
  // How many answers, never which.
  {
    label: t("importPage.preview.checking"),
    cell: (row) => (row.checking === "flag" ? t("importPage.preview.flagAnswers", { count: row.answerCount }) : t("importPage.preview.judges")),
  },
  // The points' curve, the release, the hints that cost points and the prerequisites (how many, never a hint's text).
  { label: t("importPage.preview.more"), cell: (row) => moreOf(row, t) || "—" },
];

function moreOf(row: ChallengesCheck["rows"][number], t: T): string {
  return [
    row.dynamic ? t("importPage.preview.dynamic", { minimum: row.dynamic.minimumPoints, decay: row.dynamic.decay }) : null,
    row.releaseAfterMinutes !== null ? t("importPage.preview.opensAfter", { minutes: row.releaseAfterMinutes }) : null,
    row.paidHints > 0 ? t("importPage.preview.paidHints", { count: row.paidHints }) : null,
    row.prerequisites > 0 ? t("importPage.preview.requires", { count: row.prerequisites }) : null,
  ]
    .filter(Boolean)
    .join("; ");
}

function PreviewRows({ preview }: { preview: ImportPreview }) {
  const { t } = useT();
  return preview.kind === "accounts" ? (
    <RowsTable caption={t("importPage.preview.accountsCaption")} columns={accountColumns(t)} rows={(preview.check as AccountsCheck).rows} />
  ) : (
    <RowsTable caption={t("importPage.preview.challengesCaption")} columns={challengeColumns(t)} rows={(preview.check as ChallengesCheck).rows} />
  );
}

function PreviewPanel({ preview }: { preview: ImportPreview }) {
  const navigation = useNavigation();
  const importing = navigation.state === "submitting" && navigation.formData?.get("intent") === "import";
  const ready = !preview.check.fileError && !preview.check.issues.length;
  const count = preview.check.rows.length;
  const { t } = useT();
  return (
    <section className="card stack" aria-labelledby="import-preview-heading">
      <h2 id="import-preview-heading">
        {t("importPage.preview.title")}
        {preview.fileName ? (
          <>
            : <bdi>{preview.fileName}</bdi>
          </>
        ) : null}
      </h2>
      <Issues check={preview.check} />
      {count ? (
        <SideScroll role="region" aria-labelledby="import-rows-caption" tabIndex={0}>
          <PreviewRows preview={preview} />
        </SideScroll>
      ) : null}
      {ready ? (
        <Form method="post" className="form">
          <input type="hidden" name="kind" value={preview.kind} />
          <input type="hidden" name="fileName" value={preview.fileName} />
          <textarea name="content" defaultValue={preview.content} hidden readOnly />
          <ActionButton type="submit" name="intent" value="import" disabled={importing}>
            {importing
              ? t("importPage.preview.importing")
              : preview.kind === "accounts"
                ? t("importPage.preview.importAccounts", { count })
                : t("importPage.preview.importChallenges", { count })}
          </ActionButton>
        </Form>
      ) : null}
    </section>
  );
}

function DonePanel({ done }: { done: ImportDone }) {
  const { t } = useT();
  if (done.kind === "challenges") {
    return (
      <section className="card stack" aria-labelledby="import-done-heading">
        <h2 id="import-done-heading">
          <bdi>{m.challengesImported(done.created)}</bdi>
        </h2>
        <p>
          <Link to="/dashboard/getAllChallenges">{t("importPage.done.seeAll")}</Link> {t("importPage.done.attachments")}
        </p>
      </section>
    );
  }
  const generated = done.accounts.some((account) => account.generatedPassword);
  return (
    <section className="card stack" aria-labelledby="import-done-heading">
      <h2 id="import-done-heading">
        <bdi>{m.accountsImported(done.accounts.length)}</bdi>
      </h2>
      {generated ? <p className="import-warning">{t("importPage.done.warning")}</p> : null}
      <SideScroll role="region" aria-labelledby="import-done-caption" tabIndex={0}>
        <table className="table">
          <caption id="import-done-caption" className="visually-hidden">
            {t("importPage.done.caption")}
          </caption>
          <thead>
            <tr>
              <th scope="col">{t("importPage.name")}</th>
              <th scope="col">{t("importPage.role")}</th>
              <th scope="col">{t("importPage.team")}</th>
              <th scope="col">{t("importPage.password")}</th>
            </tr>
          </thead>
          <tbody>
            {done.accounts.map((account) => (
              <tr key={account.name}>
                <td>
                  <bdi>{account.name}</bdi>
                </td>
                <td>{roleKeys[account.role] ? t(roleKeys[account.role]!) : account.role}</td>
                <td>{account.team ? <bdi>{account.team}</bdi> : "—"}</td>
                <td>
                  {account.generatedPassword ? (
                    <bdi dir="ltr" className="secret-value">
                      {account.generatedPassword}
                    </bdi>
                  ) : account.linkMailedTo ? (
                    <span className="muted">
                      {t("importPage.done.linkMailedTo")} <bdi dir="ltr">{account.linkMailedTo}</bdi>
                    </span>
                  ) : (
                    <span className="muted">{t("importPage.fromFile")}</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </SideScroll>
      {done.csv ? (
        <a href={done.csv} download={done.csvName} className="action-button">
          {t("importPage.done.download")}
        </a>
      ) : null}
    </section>
  );
}

/** Dashboard → Import: the two upload forms, and the preview or the outcome of the last post. */
export function ImportScreen({ result }: { result: ImportPreview | ImportDone | undefined }) {
  const { t } = useT();
  return (
    <section aria-labelledby="import-title" className="stack dash-page">
      <h1 id="import-title">{t("importPage.title")}</h1>
      {result?.step === "preview" ? <PreviewPanel preview={result} /> : null}
      {result?.step === "done" ? <DonePanel done={result} /> : null}
      <UploadForm
        kind="accounts"
        title={t("importPage.accounts.title")}
        columnsLabel={t("importPage.accounts.columnsLabel")}
        columns={[...ACCOUNT_COLUMNS.required, ...ACCOUNT_COLUMNS.optional]}
        rules={t("importPage.accounts.rules")}
        example={accountExample}
        accept=".csv,text/csv"
      />
      <UploadForm
        kind="challenges"
        title={t("importPage.challenges.title")}
        columnsLabel={t("importPage.challenges.columnsLabel")}
        columns={[...CHALLENGE_COLUMNS.required, ...CHALLENGE_COLUMNS.optional]}
        rules={t("importPage.challenges.rules")}
        example={challengeExample}
        accept=".csv,.json,text/csv,application/json"
      />
    </section>
  );
}
