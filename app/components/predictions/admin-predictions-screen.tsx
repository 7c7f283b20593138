import { Form, Link } from "@remix-run/react";
import { useActionReply } from "~/components/action-reply";
import { ActionButton } from "~/components/ui/action-button";
import { SideScroll } from "~/components/ui/side-scroll";
import { useT } from "~/components/i18n";
import { isolated } from "~/modules/i18n/content";
import { useRevalidateOn } from "~/components/realtime/revalidate-on";
import { useServerMessage } from "~/components/server-message";
import { Message } from "~/components/ui/message";
import { METRICS } from "~/modules/predictions/metrics";
import type { Faults } from "~/modules/predictions/faults";
import type { adminPredictionsPage } from "~/modules/predictions/predictions.server";
import { FaultList, FileCells, metricKeys, shownScore } from "./predictions-screen";

type Data = NonNullable<Awaited<ReturnType<typeof adminPredictionsPage>>>;
type Reply = { ok: boolean; message: string; faults?: Faults; fields?: Record<string, string> } | undefined;

/** A prediction challenge's admin page (/dashboard/predictions/:id): scoring, hidden labels, the reveal, every file. */
export function AdminPredictionsScreen({ challenge, settings, revealed, timeZone, files }: Data) {
  const { t } = useT();
  const serverMessage = useServerMessage();
  const reply = useActionReply<Reply>();
  useRevalidateOn("predictions:changed");
  // What was typed comes back with a refusal (nothing lost); else the saved settings.
  const typed = reply?.fields;
  const value = (name: "publicPercent" | "baseline" | "target" | "dailyLimit", fallback: string) => typed?.[name] ?? (settings ? String(settings[name]) : fallback);
  return (
    <section className="stack dash-page" aria-labelledby="predictions-admin-title">
      <h1 id="predictions-admin-title">{t("predictionsAdmin.title", { title: isolated(challenge.title) })}</h1>
      <p>
        <Link to={`/predictions/${challenge.id}`}>{t("predictionsAdmin.participantPage")}</Link>
      </p>
      {reply ? <Message tone={reply.ok ? "correct" : "error"}>{serverMessage(reply.message)}</Message> : null}
      {reply?.faults ? <FaultList faults={reply.faults} /> : null}

      <Form method="post" className="form card stack" aria-labelledby="predictions-settings">
        <h2 id="predictions-settings">{t("predictionsAdmin.settings")}</h2>
        <input type="hidden" name="intent" value="settings" />
        <div className="field">
          <label className="field__label" htmlFor="prediction-metric">
            {t("predictionsAdmin.metric")}
          </label>
          <select id="prediction-metric" name="metric" className="field__input" defaultValue={typed?.metric ?? settings?.metric ?? "accuracy"}>
            {METRICS.map((metric) => (
              <option key={metric} value={metric}>
                {t(metricKeys[metric])}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field__label" htmlFor="prediction-public">
            {t("predictionsAdmin.publicPercent")}
          </label>
          <input id="prediction-public" name="publicPercent" className="field__input" inputMode="numeric" defaultValue={value("publicPercent", "30")} required />
        </div>
        <div className="field">
          <label className="field__label" htmlFor="prediction-baseline">
            {t("predictionsAdmin.baseline")}
          </label>
          <input id="prediction-baseline" name="baseline" className="field__input" inputMode="decimal" dir="ltr" defaultValue={value("baseline", "")} required />
        </div>
        <div className="field">
          <label className="field__label" htmlFor="prediction-target">
            {t("predictionsAdmin.target")}
          </label>
          <input id="prediction-target" name="target" className="field__input" inputMode="decimal" dir="ltr" defaultValue={value("target", "")} required />
          <p className="muted">{t("predictionsAdmin.targetHelp")}</p>
        </div>
        <div className="field">
          <label className="field__label" htmlFor="prediction-daily">
            {t("predictionsAdmin.dailyLimit")}
          </label>
          <input id="prediction-daily" name="dailyLimit" className="field__input" inputMode="numeric" defaultValue={value("dailyLimit", "5")} required />
        </div>
        <ActionButton type="submit">
          {t("predictionsAdmin.save")}
        </ActionButton>
      </Form>

      <Form method="post" encType="multipart/form-data" className="form card stack" aria-labelledby="predictions-labels">
        <h2 id="predictions-labels">{t("predictionsAdmin.labels")}</h2>
        <p className="muted">{t("predictionsAdmin.labelsHelp")}</p>
        <p>
          {settings?.labelsName ? (
            <bdi>{t("predictionsAdmin.labelsNow", { name: settings.labelsName, rows: settings.labelsRows ?? 0, columns: settings.columns ?? "" })}</bdi>
          ) : (
            t("predictionsAdmin.labelsNone")
          )}
        </p>
        <div className="field">
          <label className="field__label" htmlFor="prediction-labels">
            {t("predictionsAdmin.labels")}
          </label>
          <input id="prediction-labels" className="field__input" type="file" name="file" accept=".csv,text/csv" required />
        </div>
        <ActionButton type="submit">
          {t("predictionsAdmin.upload")}
        </ActionButton>
      </Form>

      <Form method="post" className="form card stack" aria-labelledby="predictions-reveal">
        <h2 id="predictions-reveal">{t("predictionsAdmin.reveal")}</h2>
        {revealed ? (
          <p className="message message--correct">{t("predictionsAdmin.revealedAt")}</p>
        ) : (
          <>
            <p className="muted">{t("predictionsAdmin.revealHelp")}</p>
            <input type="hidden" name="intent" value="reveal" />
            <ActionButton type="submit" variant="danger">
              {t("predictionsAdmin.reveal")}
            </ActionButton>
          </>
        )}
      </Form>

      <section className="card stack" aria-labelledby="predictions-files">
        <h2 id="predictions-files">{t("predictionsAdmin.files")}</h2>
        {files.length === 0 ? (
          <p className="muted">{t("predictionsAdmin.noFiles")}</p>
        ) : (
          <SideScroll>
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">{t("predictions.team")}</th>
                  <th scope="col">{t("predictions.sentAt")}</th>
                  <th scope="col">{t("predictions.status")}</th>
                  <th scope="col">{t("predictions.publicScore")}</th>
                  <th scope="col">{t("predictions.privateScore")}</th>
                </tr>
              </thead>
              <tbody>
                {files.map((file) => (
                  <tr key={file.id}>
                    <td>
                      <bdi>{file.teamName}</bdi>
                    </td>
                    <FileCells file={file} timeZone={timeZone} />
                    <td className="figures" dir="ltr">
                      {shownScore(file.publicScore)}
                    </td>
                    <td className="figures" dir="ltr">
                      {shownScore(file.privateScore)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </SideScroll>
        )}
      </section>
    </section>
  );
}
