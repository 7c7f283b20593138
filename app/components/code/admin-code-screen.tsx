import { Form, Link } from "@remix-run/react";
import { useActionReply } from "~/components/action-reply";
import { Trans } from "react-i18next";
import { ActionButton } from "~/components/ui/action-button";
import { useT } from "~/components/i18n";
import { isolated } from "~/modules/i18n/content";
import { useFormats } from "~/components/realtime/format";
import { useRevalidateOn } from "~/components/realtime/revalidate-on";
import { useServerMessage } from "~/components/server-message";
import { Message } from "~/components/ui/message";
import { ListPageLinks } from "~/components/ui/page-links";
import type { adminCodePage } from "~/modules/code/runs.server";
import { compileProblemKeys, RunDetails, RunPoints } from "./code-screen";

type Data = NonNullable<Awaited<ReturnType<typeof adminCodePage>>>;

/** The two limits' boxes: the field, its label, its value before any is saved. */
const limitFields = [
  { name: "timeLimitMs", label: "codeAdmin.timeLimit", fallback: 2000 },
  { name: "memoryLimitMb", label: "codeAdmin.memoryLimit", fallback: 256 },
] as const;
type Reply = { ok: boolean; message: string; fields?: Record<string, string> } | undefined;

/** The languages a checker may be written in (app/modules/code/checker.server.ts `CHECKER_LANGUAGES`), by their names. */
const checkerLanguages = { cpp: "C++", c: "C", python3: "Python 3" } as const;

const checkerStates = {
  pending: "codeAdmin.checkerPending",
  compiled: "codeAdmin.checkerCompiled",
  failed: "codeAdmin.checkerFailed",
} as const;

/** The checker: the one kept, whether a runner compiled it (the compiler's message if not), and the form to replace it. */
function CheckerForm({ settings, typed }: { settings: Data["settings"]; typed: Record<string, string> | undefined }) {
  const { t } = useT();
  return (
    <Form method="post" encType="multipart/form-data" className="form card stack" aria-labelledby="code-checker">
      <h2 id="code-checker">{t("codeAdmin.checker")}</h2>
      <p className="muted">
        <Trans i18nKey="codeAdmin.checkerHelp" components={{ code: <code dir="ltr" /> }} />
      </p>
      <input type="hidden" name="intent" value="checker" />
      {settings?.checkerHash ? (
        <>
          <p>
            <bdi>{t("codeAdmin.checkerNow", { name: settings.checkerName ?? "", language: checkerLanguages[settings.checkerLanguage as keyof typeof checkerLanguages] ?? settings.checkerLanguage ?? "" })}</bdi>
          </p>
          <p className={settings.checkerState === "failed" ? "message message--error" : undefined} data-checker-state={settings.checkerState ?? undefined}>
            {t(checkerStates[settings.checkerState ?? "pending"])}
          </p>
          {settings.checkerState === "pending" ? (
            // Without JavaScript (no live update) the admin asks again; a reload of its own would wipe what they type.
            <noscript>
              <p>
                <a href={`/dashboard/code/${settings.challengeId}`}>{t("codeAdmin.checkAgain")}</a>
              </p>
            </noscript>
          ) : null}
          {settings.checkerProblem && compileProblemKeys[settings.checkerProblem] ? <p className="message message--error">{t(compileProblemKeys[settings.checkerProblem]!)}</p> : null}
          {settings.checkerMessage ? (
            <pre className="compile-message" dir="ltr">
              {settings.checkerMessage}
            </pre>
          ) : null}
          {settings.comparator !== "checker" ? <p className="muted">{t("codeAdmin.checkerUnused")}</p> : null}
        </>
      ) : (
        <p>{t("codeAdmin.checkerNone")}</p>
      )}
      <div className="field">
        <label className="field__label" htmlFor="code-checker-language">
          {t("codeAdmin.checkerLanguage")}
        </label>
        <select id="code-checker-language" name="checkerLanguage" className="field__input" defaultValue={typed?.checkerLanguage ?? settings?.checkerLanguage ?? "cpp"}>
          {Object.entries(checkerLanguages).map(([id, name]) => (
            <option key={id} value={id}>
              {name}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label className="field__label" htmlFor="code-checker-file">
          {t("codeAdmin.checkerFile")}
        </label>
        <input id="code-checker-file" className="field__input" type="file" name="checker" required />
      </div>
      <ActionButton type="submit">{t("codeAdmin.checkerUpload")}</ActionButton>
    </Form>
  );
}

/**
 * A code challenge's admin page (/dashboard/code/:id): languages and limits, the hidden tests, pausing (admins), and
 * every run with its rejudge (admins and judges).
 */
export function AdminCodeScreen({ challenge, admin, paused, settings, available, timeZone, runs, pages, failing }: Data) {
  const { t } = useT();
  const format = useFormats();
  const serverMessage = useServerMessage();
  const reply = useActionReply<Reply>();
  useRevalidateOn("runs:changed");
  // What was typed comes back with a refusal (nothing lost); else the saved settings.
  const typed = reply && !reply.ok ? reply.fields : undefined;
  const chosen = new Set(typed?.languages !== undefined ? typed.languages.split(",") : (settings?.languages ?? ["c", "cpp", "python3", "java", "javascript"]));
  return (
    <section className="stack dash-page" aria-labelledby="code-admin-title">
      <h1 id="code-admin-title">{t("codeAdmin.title", { title: isolated(challenge.title) })}</h1>
      <p>
        <Link to={`/code/${challenge.id}`}>{t("codeAdmin.participantPage")}</Link>
      </p>
      {reply ? <Message tone={reply.ok ? "correct" : "error"}>{serverMessage(reply.message)}</Message> : null}

      {admin ? (
        <>
        <Form method="post" className="form card stack" aria-labelledby="code-settings">
          <h2 id="code-settings">{t("codeAdmin.settings")}</h2>
          <input type="hidden" name="intent" value="settings" />
          <fieldset className="stack">
            <legend>{t("codeAdmin.languages")}</legend>
            {available.map((language) => (
              <label key={language.id} className="checkbox">
                <input type="checkbox" name="languages" value={language.id} defaultChecked={chosen.has(language.id)} />{" "}
                <bdi>{language.version ? t("code.languageOption", { name: language.name, version: language.version }) : t("code.languageNoVersion", { name: language.name })}</bdi>
              </label>
            ))}
          </fieldset>
          {limitFields.map((field) => (
            <div className="field" key={field.name}>
              <label className="field__label" htmlFor={`code-${field.name}`}>
                {t(field.label)}
              </label>
              <input id={`code-${field.name}`} name={field.name} className="field__input" inputMode="numeric" defaultValue={typed?.[field.name] ?? String(settings?.[field.name] ?? field.fallback)} required />
            </div>
          ))}
          <div className="field">
            <label className="field__label" htmlFor="code-comparator">
              {t("codeAdmin.comparator")}
            </label>
            <select id="code-comparator" name="comparator" className="field__input" defaultValue={typed?.comparator ?? settings?.comparator ?? "exact"}>
              <option value="exact">{t("codeAdmin.comparatorExact")}</option>
              <option value="numeric">{t("codeAdmin.comparatorNumeric")}</option>
              <option value="checker">{t("codeAdmin.comparatorChecker")}</option>
            </select>
          </div>
          <ActionButton type="submit">{t("codeAdmin.save")}</ActionButton>
        </Form>
  
        <Form method="post" encType="multipart/form-data" className="form card stack" aria-labelledby="code-tests">
          <h2 id="code-tests">{t("codeAdmin.tests")}</h2>
          <p className="muted">
            <Trans i18nKey="codeAdmin.testsHelp" components={{ code: <code dir="ltr" /> }} />
          </p>
          {settings?.testsName ? (
            <>
              <p>
                <bdi>{t("codeAdmin.testsNow", { name: settings.testsName })}</bdi>
              </p>
              <ul>
                {settings.subtasks.map((subtask) => (
                  <li key={subtask.name}>{t("code.subtaskLine", { name: isolated(subtask.name), share: subtask.share, total: settings.totalShare ?? 0, tests: subtask.tests })}</li>
                ))}
              </ul>
            </>
          ) : (
            <p>{t("codeAdmin.testsNone")}</p>
          )}
          <div className="field">
            <label className="field__label" htmlFor="code-tests-file">
              <Trans i18nKey="codeAdmin.testsFile" components={{ code: <code dir="ltr" /> }} />
            </label>
            <input id="code-tests-file" className="field__input" type="file" name="file" accept=".tar.gz,.tgz,application/gzip" required />
          </div>
          <ActionButton type="submit">{t("codeAdmin.upload")}</ActionButton>
        </Form>

        <CheckerForm settings={settings} typed={typed} />
        </>
      ) : null}

      <section className="card stack" aria-labelledby="code-judging">
        <h2 id="code-judging">{t("codeAdmin.judging")}</h2>
        <p>{paused === null ? t("codeAdmin.judgingUnknown") : paused ? t("codeAdmin.judgingPaused") : t("codeAdmin.judgingRunning")}</p>
        {admin ? (
          <Form method="post">
            <input type="hidden" name="intent" value={paused ? "resume" : "pause"} />
            <ActionButton type="submit" variant={paused ? undefined : "danger"}>
              {paused ? t("codeAdmin.resume") : t("codeAdmin.pause")}
            </ActionButton>
          </Form>
        ) : null}
        <p className="muted">{t("codeAdmin.rejudgeHelp")}</p>
        <Form method="post">
          <input type="hidden" name="intent" value="rejudge" />
          <ActionButton type="submit" variant="subtle">
            {t("codeAdmin.rejudgeAll")}
          </ActionButton>
        </Form>
      </section>

      <section className="card stack" aria-labelledby="code-all-runs">
        <h2 id="code-all-runs">{t("codeAdmin.runs")}</h2>
        {/* Plain links: the list's filter works without JavaScript, and its pages keep it. */}
        <p>
          {failing ? <Link to="?">{t("codeAdmin.allRuns")}</Link> : <Link to="?failing=1">{t("codeAdmin.onlyFailing")}</Link>}
        </p>
        {runs.length === 0 ? (
          <p className="muted">{failing ? t("codeAdmin.noneFailing") : t("code.none")}</p>
        ) : (
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">{t("codeAdmin.team")}</th>
                  <th scope="col">{t("code.sentAt")}</th>
                  <th scope="col">{t("code.verdict")}</th>
                  <th scope="col">{t("code.points")}</th>
                </tr>
              </thead>
              <tbody>
                {runs.map((run) => (
                  <tr key={run.id} data-run={run.id}>
                    <td>
                      <bdi>{run.teamName}</bdi>
                    </td>
                    <td>
                      <bdi>{run.language}</bdi>
                      <br />
                      <span className="muted">{format.dayTime(run.createdAt, timeZone)}</span>
                    </td>
                    <td>
                      <RunDetails run={run}>
                        {run.failures > 0 ? <p className="message message--error">{t("codeAdmin.failures", { times: run.failures, failure: run.failure ?? "" })}</p> : null}
                      </RunDetails>
                      {run.state === "done" ? (
                        <Form method="post">
                          <input type="hidden" name="intent" value="rejudge" />
                          <input type="hidden" name="run" value={run.id} />
                          <ActionButton type="submit" variant="subtle">
                            {t("codeAdmin.rejudge")}
                          </ActionButton>
                        </Form>
                      ) : null}
                    </td>
                    <RunPoints run={run} />
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {pages.pages > 1 ? (
          <ListPageLinks pages={pages} query={{ failing: failing ? "1" : undefined }} label={t("codeAdmin.runsPagesLabel")} range={(figures) => t("codeAdmin.runsRange", figures)} />
        ) : null}
      </section>
    </section>
  );
}
