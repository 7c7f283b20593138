import { Form, Link, useNavigation } from "@remix-run/react";
import { useActionReply } from "~/components/action-reply";
import { ActionButton } from "~/components/ui/action-button";
import { SideScroll } from "~/components/ui/side-scroll";
import { useT } from "~/components/i18n";
import { isolated } from "~/modules/i18n/content";
import { useFormats } from "~/components/realtime/format";
import { useRevalidateOn } from "~/components/realtime/revalidate-on";
import { useServerMessage } from "~/components/server-message";
import { Message } from "~/components/ui/message";
import { TitleBar } from "~/components/ui/title-bar";
import type { Metric } from "~/modules/predictions/metrics";
import type { FaultCode, Faults } from "~/modules/predictions/faults";
import type { PredictionsPageData } from "~/modules/predictions/predictions.server";

/** The screens' words for a metric, a file's status and a fault (app/locales: predictions.*). */
export const metricKeys: Record<Metric, string> = {
  accuracy: "predictions.metrics.accuracy",
  macro_f1: "predictions.metrics.macro_f1",
  rmse: "predictions.metrics.rmse",
  mae: "predictions.metrics.mae",
  roc_auc: "predictions.metrics.roc_auc",
};
const statusKeys = { queued: "predictions.statuses.queued", scored: "predictions.statuses.scored", failed: "predictions.statuses.failed" } as const;
const faultKeys: Record<FaultCode, string> = {
  header: "predictions.fault.header",
  columnCount: "predictions.fault.columnCount",
  emptyId: "predictions.fault.emptyId",
  unknownId: "predictions.fault.unknownId",
  duplicateId: "predictions.fault.duplicateId",
  badNumber: "predictions.fault.badNumber",
  badClass: "predictions.fault.badClass",
  badBinary: "predictions.fault.badBinary",
  tooManyClasses: "predictions.fault.tooManyClasses",
  missingIds: "predictions.fault.missingIds",
  noRows: "predictions.fault.noRows",
  tooManyRows: "predictions.fault.tooManyRows",
  unreadable: "predictions.fault.unreadable",
  oneClassSplit: "predictions.fault.oneClassSplit",
  noLabels: "predictions.fault.noLabels",
};

/** A metric's value as players read it: up to 5 significant digits, Latin figures. */
export const shownScore = (score: number | null) => (score === null ? "—" : Number(score.toPrecision(5)).toString());

/** A refused file's first lines at fault, each a sentence, and how many more. */
export function FaultList({ faults }: { faults: Faults }) {
  const { t } = useT();
  return (
    <ul className="prediction-faults">
      {faults.first.map((fault, index) => (
        <li key={index}>
          <bdi>{t(faultKeys[fault.code] ?? "predictions.fault.unreadable", { line: fault.line, value: fault.value ?? "", other: fault.other ?? 0 })}</bdi>
        </li>
      ))}
      {faults.count > faults.first.length ? <li>{t("predictions.faultsMore", { count: faults.count - faults.first.length })}</li> : null}
    </ul>
  );
}

type Reply = { ok: boolean; message: string; faults?: Faults } | undefined;

/**
 * A prediction challenge's page for a team (/predictions/:id): how it is scored, the file form, the team's files
 * (public scores; private ones only once revealed) with the choice of the one that counts, and the leaderboard.
 * Re-read live when a file of the challenge is scored (`predictions:changed`); without JavaScript, on the next load.
 */
/** A predictions file's first two cells, on the team's screen and the admins': its name and when it came, its status. */
export function FileCells({ file, timeZone }: { file: { fileName: string; createdAt: string; status: keyof typeof statusKeys; faults: Faults | null }; timeZone: string }) {
  const { t } = useT();
  const format = useFormats();
  return (
    <>
      <td>
        <bdi>{file.fileName}</bdi>
        <br />
        <span className="muted">{format.dayTime(file.createdAt, timeZone)}</span>
      </td>
      <td>
        {t(statusKeys[file.status])}
        {file.faults ? <FaultList faults={file.faults} /> : null}
      </td>
    </>
  );
}

export function PredictionsScreen({ challenge, revealed, frozen, timeZone, teamId, sentToday, maxBytes, own, board }: PredictionsPageData) {
  const { t } = useT();
  const format = useFormats();
  const serverMessage = useServerMessage();
  const reply = useActionReply<Reply>();
  const navigation = useNavigation();
  useRevalidateOn("predictions:changed");
  const metric = challenge.metric ? t(metricKeys[challenge.metric]) : "—";
  const columns = challenge.idColumn && challenge.targetColumn ? `${challenge.idColumn},${challenge.targetColumn}` : "id,target";
  const canSend = teamId !== null && challenge.ready && !revealed;
  const anyChosen = own.some((file) => file.chosen);
  const pending = own.some((file) => file.status === "queued");
  return (
    <main className="page predictions-page stack">
      {/* Without JavaScript the page reloads itself while a file is scored, as the code page does while a run is judged. */}
      {pending ? (
        <noscript>
          <meta httpEquiv="refresh" content="5" />
        </noscript>
      ) : null}
      <TitleBar title={t("predictions.title", { title: challenge.title })} written />
      <section className="card stack" aria-labelledby="predictions-send">
        <h2 id="predictions-send">{t("predictions.send")}</h2>
        <p>
          {t("predictions.about", { metric, percent: challenge.publicPercent ?? 0 })} {t(challenge.lowerIsBetter ? "predictions.lowerBetter" : "predictions.higherBetter")}
        </p>
        <p className="muted">
          {t("predictions.format", { columns: isolated(columns) })}
        </p>
        {reply ? (
          <Message tone={reply.ok ? "correct" : "error"}>{serverMessage(reply.message)}</Message>
        ) : null}
        {revealed ? (
          <p className="message message--correct">{t("predictions.revealedNote")}</p>
        ) : !challenge.ready ? (
          <p className="message message--error">{t("predictions.notReady")}</p>
        ) : teamId === null ? (
          <p className="message message--error">{t("predictions.noTeam")}</p>
        ) : null}
        {canSend ? (
          <Form method="post" encType="multipart/form-data" className="form" reloadDocument={false}>
            <div className="field">
              <label className="field__label" htmlFor="predictions-file">
                {t("predictions.file", { megabytes: Math.round(maxBytes / 1024 / 1024) })}
              </label>
              <input id="predictions-file" className="field__input" type="file" name="file" accept=".csv,text/csv" required />
            </div>
            <p className="muted">{t("predictions.daily", { sent: sentToday, limit: challenge.dailyLimit ?? 0 })}</p>
            <ActionButton type="submit" disabled={navigation.state === "submitting"}>
              {navigation.state === "submitting" ? t("predictions.sending") : t("predictions.send")}
            </ActionButton>
          </Form>
        ) : null}
      </section>

      {teamId !== null ? (
        <section className="card stack" aria-labelledby="predictions-yours">
          <h2 id="predictions-yours">{t("predictions.yours")}</h2>
          {own.length === 0 ? (
            <p className="muted">{t("predictions.none")}</p>
          ) : (
            <SideScroll>
              <table className="table predictions-files">
                <thead>
                  <tr>
                    <th scope="col">{t("predictions.sentAt")}</th>
                    <th scope="col">{t("predictions.status")}</th>
                    <th scope="col">{t("predictions.publicScore")}</th>
                    <th scope="col">{t("predictions.privateScore")}</th>
                    <th scope="col">{t("predictions.points")}</th>
                    <th scope="col">{t("predictions.counts")}</th>
                  </tr>
                </thead>
                <tbody>
                  {own.map((file) => (
                    <tr key={file.id} data-file={file.id} className={file.counts ? "predictions-files__counts" : undefined}>
                      <FileCells file={file} timeZone={timeZone} />
                      <td className="figures" dir="ltr">
                        {file.status === "scored" ? shownScore(file.publicScore) : "—"}
                      </td>
                      <td className="figures">{revealed ? <span dir="ltr">{shownScore(file.privateScore)}</span> : <span className="muted">{t("predictions.hiddenUntilReveal")}</span>}</td>
                      <td className="figures" dir="ltr">
                        {file.status === "scored" ? format.points(((revealed ? file.privateCenti : file.publicCenti) ?? 0) / 100) : "—"}
                      </td>
                      <td>
                        {file.counts ? (
                          <strong>{t("predictions.countsNow")}</strong>
                        ) : file.status === "scored" && !revealed ? (
                          <Form method="post">
                            <input type="hidden" name="intent" value="choose" />
                            <input type="hidden" name="submission" value={file.id} />
                            <ActionButton type="submit" variant="subtle">
                              {t("predictions.choose")}
                            </ActionButton>
                          </Form>
                        ) : null}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </SideScroll>
          )}
          {anyChosen && !revealed ? (
            <Form method="post">
              <input type="hidden" name="intent" value="choose" />
              <input type="hidden" name="submission" value="latest" />
              <ActionButton type="submit" variant="subtle">
                {t("predictions.latest")}
              </ActionButton>
            </Form>
          ) : null}
        </section>
      ) : null}

      <section className="card stack" aria-labelledby="predictions-board">
        <h2 id="predictions-board">{t("predictions.leaderboard")}</h2>
        <p className="muted">{t(revealed ? "predictions.leaderboardPrivate" : "predictions.leaderboardPublic")}</p>
        {frozen ? <p className="muted">{t("predictions.leaderboardFrozen")}</p> : null}
        {board.length === 0 ? (
          <p className="muted">{t("predictions.noScores")}</p>
        ) : (
          <SideScroll>
            <table className="table predictions-board">
              <thead>
                <tr>
                  <th scope="col">{t("predictions.rank")}</th>
                  <th scope="col">{t("predictions.team")}</th>
                  <th scope="col">{t("predictions.score")}</th>
                  <th scope="col">{t("predictions.points")}</th>
                  <th scope="col">{t("predictions.files")}</th>
                </tr>
              </thead>
              <tbody>
                {board.map((line) => (
                  <tr key={line.teamId} data-team={line.teamId} aria-current={line.teamId === teamId ? "true" : undefined}>
                    <td className="figures">{line.rank}</td>
                    <td>
                      <bdi>{line.teamName}</bdi>
                    </td>
                    <td className="figures" dir="ltr">
                      {shownScore(line.score)}
                    </td>
                    <td className="figures" dir="ltr">
                      {format.points(line.centi / 100)}
                    </td>
                    <td className="figures">{line.files}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </SideScroll>
        )}
      </section>
      <p>
        <Link to={`/submition/${challenge.id}`}>
          <bdi>{challenge.title}</bdi>
        </Link>
      </p>
    </main>
  );
}
