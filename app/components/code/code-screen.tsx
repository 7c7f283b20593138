import type { ReactNode } from "react";
import { Form, Link, useNavigation } from "@remix-run/react";
import { useActionReply } from "~/components/action-reply";
import { ActionButton } from "~/components/ui/action-button";
import { useT } from "~/components/i18n";
import { isolated } from "~/modules/i18n/content";
import { useFormats } from "~/components/realtime/format";
import { useRevalidateOn } from "~/components/realtime/revalidate-on";
import { useServerMessage } from "~/components/server-message";
import { Message } from "~/components/ui/message";
import { TitleBar } from "~/components/ui/title-bar";
import type { CodePageData, ShownRun, ShownTest } from "~/modules/code/runs.server";

/** The screens' words for a run's verdict and state (app/locales: code.*). */
export const verdictKeys: Record<string, string> = {
  accepted: "code.verdicts.accepted",
  "wrong-answer": "code.verdicts.wrongAnswer",
  "time-limit": "code.verdicts.timeLimit",
  "memory-limit": "code.verdicts.memoryLimit",
  "runtime-error": "code.verdicts.runtimeError",
  "compilation-error": "code.verdicts.compilationError",
  "output-limit": "code.verdicts.outputLimit",
  "judge-error": "code.verdicts.judgeError",
  skipped: "code.verdicts.skipped",
};

/** The screens' words for why a compile was stopped (app/infrastructure/sandbox/programs.server.ts `CompileProblem`). */
export const compileProblemKeys: Record<string, string> = {
  "compile-timeout": "code.compileProblems.timeout",
  "compile-memory": "code.compileProblems.memory",
  "compile-output": "code.compileProblems.output",
};

/** Where a run stands, as a sentence: waiting, compiling, running test n of m, or its verdict. */
export function RunState({ run }: { run: ShownRun }) {
  const { t } = useT();
  if (run.state === "done") return <strong className={run.verdict === "accepted" ? "run-verdict run-verdict--accepted" : "run-verdict"}>{t(verdictKeys[run.verdict ?? "judge-error"] ?? "code.verdicts.judgeError")}</strong>;
  if (run.state === "compiling") return <span>{t("code.states.compiling")}</span>;
  if (run.state === "running" && run.testIndex && run.testCount) return <span>{t("code.states.runningTest", { index: run.testIndex, count: run.testCount })}</span>;
  return <span>{t("code.states.queued")}</span>;
}

/** Each test's verdict, time and memory, by subtask (names of the hidden tests are not shown to teams). */
export function TestList({ tests }: { tests: ShownTest[] }) {
  const { t } = useT();
  if (tests.length === 0) return null;
  // The checker's words reach staff only (the loader gives a team none): a column when some test has them.
  const staff = tests.some((test) => test.checkerMessage);
  return (
    <details>
      <summary>{t("code.testsDetail", { n: tests.length })}</summary>
      <div className="table-wrap">
        <table className="table run-tests">
          <thead>
            <tr>
              <th scope="col">{t("code.subtask")}</th>
              <th scope="col">{t("code.test")}</th>
              <th scope="col">{t("code.verdict")}</th>
              <th scope="col">{t("code.time")}</th>
              <th scope="col">{t("code.memory")}</th>
              {staff ? <th scope="col">{t("code.checkerSaid")}</th> : null}
            </tr>
          </thead>
          <tbody>
            {tests.map((test, index) => (
              <tr key={index}>
                <td>
                  <bdi>{test.subtask}</bdi>
                </td>
                <td>
                  <bdi>{test.test}</bdi>
                </td>
                <td>{t(verdictKeys[test.verdict] ?? "code.verdicts.judgeError")}</td>
                <td className="figures" dir="ltr">
                  {test.verdict === "skipped" ? "—" : `${test.timeMs} ms`}
                </td>
                <td className="figures" dir="ltr">
                  {test.verdict === "skipped" ? "—" : `${Math.round(test.memoryBytes / 1024 / 1024)} MB`}
                </td>
                {staff ? (
                  <td dir="ltr">
                    <bdi className="checker-message">{test.checkerMessage ?? ""}</bdi>
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

/** A run's verdict (or state), the compiler's message, and each test's result. */
export function RunDetails({ run, children }: { run: ShownRun; children?: ReactNode }) {
  const { t } = useT();
  return (
    <>
      <RunState run={run} />
      {children}
      {run.compileProblem && compileProblemKeys[run.compileProblem] ? <p className="message message--error">{t(compileProblemKeys[run.compileProblem]!)}</p> : null}
      {run.compileMessage ? (
        <pre className="compile-message" dir="ltr">
          {run.compileMessage}
        </pre>
      ) : null}
      <TestList tests={run.tests} />
    </>
  );
}

/** A run's points ("—" until judged). */
export function RunPoints({ run }: { run: ShownRun }) {
  const format = useFormats();
  return (
    <td className="figures" dir="ltr">
      {run.pointsCenti === null ? "—" : format.points(run.pointsCenti / 100)}
    </td>
  );
}

type Reply = { ok: boolean; message: string; fields?: Record<string, string> } | undefined;

/**
 * A code challenge's page for a team (/code/:id): its languages, limits and subtasks, the form to send a program
 * (pasted or as a file), and the team's runs with their verdicts and the points they earn (IOI style). Re-read live
 * when one of the team's runs moves (`runs:changed`); without JavaScript, the page reloads itself while a run is judged.
 */
export function CodeScreen({ challenge, teamId, staff, timeZone, pointsCenti, limits, runs }: CodePageData) {
  const { t } = useT();
  const format = useFormats();
  const serverMessage = useServerMessage();
  const reply = useActionReply<Reply>();
  const navigation = useNavigation();
  useRevalidateOn("runs:changed");
  const typed = reply && !reply.ok ? reply.fields : undefined;
  const pending = runs.some((run) => run.state !== "done");
  const canSend = teamId !== null && challenge.ready && challenge.languages.length > 0;
  return (
    <main className="page code-page stack">
      {pending ? (
        <noscript>
          <meta httpEquiv="refresh" content="5" />
        </noscript>
      ) : null}
      <TitleBar title={t("code.title", { title: challenge.title })} written />
      {staff ? (
        <p>
          <Link to={`/dashboard/code/${challenge.id}`}>{t("code.allRuns")}</Link>
        </p>
      ) : null}
      <section className="card stack" aria-labelledby="code-send">
        <h2 id="code-send">{t("code.send")}</h2>
        <p>{t("code.about")}</p>
        {challenge.timeLimitMs !== null ? (
          <p className="muted">{t("code.limits", { time: challenge.timeLimitMs, memory: challenge.memoryLimitMb ?? 0 })}</p>
        ) : null}
        <p className="muted">{t("code.teamLimits", { queued: limits.queued, perMinute: limits.perMinute })}</p>
        {challenge.subtasks.length > 0 ? (
          <ul className="code-subtasks">
            {challenge.subtasks.map((subtask) => (
              <li key={subtask.name} data-passed={subtask.passed ? "true" : undefined}>
                {t(subtask.passed ? "code.subtaskPassed" : "code.subtaskLine", { name: isolated(subtask.name), share: subtask.share, total: challenge.totalShare ?? 0, tests: subtask.tests })}
              </li>
            ))}
          </ul>
        ) : null}
        {teamId !== null ? <p>{t("code.pointsNow", { points: format.points(pointsCenti / 100), of: challenge.points })}</p> : null}
        {reply ? <Message tone={reply.ok ? "correct" : "error"}>{serverMessage(reply.message)}</Message> : null}
        {!challenge.ready ? (
          <p className="message message--error">{t("code.notReady")}</p>
        ) : teamId === null ? (
          <p className="message message--error">{t("code.noTeam")}</p>
        ) : null}
        {canSend ? (
          <Form method="post" encType="multipart/form-data" className="form stack">
            <div className="field">
              <label className="field__label" htmlFor="code-language">
                {t("code.language")}
              </label>
              <select id="code-language" name="language" className="field__input" defaultValue={typed?.language ?? challenge.languages[0]?.id} required>
                {challenge.languages.map((language) => (
                  <option key={language.id} value={language.id}>
                    {language.version ? t("code.languageOption", { name: language.name, version: language.version }) : t("code.languageNoVersion", { name: language.name })}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label className="field__label" htmlFor="code-source">
                {t("code.source", { kilobytes: limits.sourceBytes / 1024 })}
              </label>
              <textarea id="code-source" name="source" className="field__input code-source" rows={14} dir="ltr" spellCheck={false} autoComplete="off" defaultValue={typed?.source ?? ""} />
            </div>
            <div className="field">
              <label className="field__label" htmlFor="code-file">
                {t("code.file")}
              </label>
              <input id="code-file" className="field__input" type="file" name="file" />
            </div>
            <ActionButton type="submit" disabled={navigation.state === "submitting"}>
              {navigation.state === "submitting" ? t("code.sending") : t("code.send")}
            </ActionButton>
          </Form>
        ) : null}
      </section>

      {teamId !== null ? (
        <section className="card stack" aria-labelledby="code-runs">
          <h2 id="code-runs">{t("code.runs")}</h2>
          {pending ? <p className="muted">{t("code.reloadHint")}</p> : null}
          {runs.length === 0 ? (
            <p className="muted">{t("code.none")}</p>
          ) : (
            <div className="table-wrap">
              <table className="table code-runs">
                <thead>
                  <tr>
                    <th scope="col">{t("code.sentAt")}</th>
                    <th scope="col">{t("code.language")}</th>
                    <th scope="col">{t("code.verdict")}</th>
                    <th scope="col">{t("code.points")}</th>
                  </tr>
                </thead>
                <tbody>
                  {runs.map((run) => (
                    <tr key={run.id} data-run={run.id} data-state={run.state} data-verdict={run.verdict ?? undefined}>
                      <td className="muted">{format.dayTime(run.createdAt, timeZone)}</td>
                      <td>
                        <bdi>{challenge.languages.find((language) => language.id === run.language)?.name ?? run.language}</bdi>
                      </td>
                      <td>
                        <RunDetails run={run} />
                      </td>
                      <RunPoints run={run} />
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
      ) : null}
      <p>
        <Link to={`/submition/${challenge.id}`}>
          <bdi>{challenge.title}</bdi>
        </Link>
      </p>
    </main>
  );
}
