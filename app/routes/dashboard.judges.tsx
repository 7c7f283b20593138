import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { useActionReply } from "~/components/action-reply";
import { useT } from "~/components/i18n";
import type { DashboardHandle } from "~/components/dashboard/error-boundary";
import { categoryLabel } from "~/components/participant/category";
import { useServerMessage } from "~/components/server-message";
import { ActionButton } from "~/components/ui/action-button";
import { pageTitle } from "~/modules/i18n/i18n";
import { requirePage } from "~/glue/auth.server";
import { dashboardFormFailure } from "~/glue/failures.server";
import { redirectWithToast } from "~/glue/toast.server";
import { AssignmentSchema, listAssignments, setAssignment } from "~/modules/judging/assignments.server";
import { messages } from "~/modules/messages";
import { judgeCalibration, OUTLIER_MIN_DIFFERENCE, OUTLIER_MIN_SHARED } from "~/modules/judging/calibration.server";
import styles from "~/styles/dashboard.css";
import { SideScroll } from "~/components/ui/side-scroll";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];
export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "judgesPage.title") }];

export const handle: DashboardHandle = { loadFailed: (_message, t) => t("judgesPage.loadFailed") };

export async function loader({ request }: LoaderFunctionArgs) {
  await requirePage(request);
  const [judges, assignments] = await Promise.all([judgeCalibration(), listAssignments()]);
  // The thresholds travel with the data: the page states the rule the module applied.
  return {
    judges: judges.map((judge) => ({ ...judge, assignment: assignments.get(judge.id) ?? { waves: [], categories: [] } })),
    rule: { minShared: OUTLIER_MIN_SHARED, minDifference: OUTLIER_MIN_DIFFERENCE },
  };
}

/** Assigns a judge to gates and categories (their queue then holds those only). */
export async function action({ request }: ActionFunctionArgs) {
  await requirePage(request);
  const form = parseWithZod(await request.formData(), { schema: AssignmentSchema });
  if (form.status !== "success") return data(form.reply(), { status: 400 });
  try {
    await setAssignment(form.value.judgeId, { waves: form.value.waves ?? [], categories: form.value.categories ?? [] });
  } catch (error) {
    const failed = dashboardFormFailure(form, error, { log: "judge assignment not saved" });
    return data(failed.result, failed.init);
  }
  return redirectWithToast("/dashboard/judges", { type: "success", title: messages.judging.assignmentsSaved });
}

type Judge = ReturnType<typeof useLoaderData<typeof loader>>["judges"][number];

/** One decimal, by hand (the server and the browser print the same characters); "—" when there is none. */
const decimal = (value: number | null) => (value === null ? "—" : value.toFixed(1));
/** Signed: "+4.5", "-30.0", "0.0". */
const signed = (value: number | null) => (value === null ? "—" : value > 0 ? `+${value.toFixed(1)}` : value.toFixed(1));

export default function Judges() {
  const { judges, rule } = useLoaderData<typeof loader>();
  const compared = judges.some((judge) => judge.shared > 0);
  const { t } = useT();
  return (
    <section aria-labelledby="judges-title" className="stack dash-page">
      <h1 id="judges-title">{t("judgesPage.heading")}</h1>
      <p>{t("judgesPage.intro")}</p>
      <p>
        <strong>{t("judgesPage.outlierRule", { minShared: rule.minShared, minDifference: rule.minDifference })}</strong>
      </p>
      {judges.length === 0 ? (
        <p className="card">{t("judgesPage.none")}</p>
      ) : (
        <>
          {compared ? null : <p className="muted">{t("judgesPage.nothingCompared")}</p>}
          {/* Scrolls sideways on a phone: focusable, so a keyboard scrolls it too. */}
          <SideScroll role="region" aria-labelledby="judges-caption" tabIndex={0}>
            <table className="table calibration">
              <caption id="judges-caption" className="visually-hidden">
                {t("judgesPage.caption")}
              </caption>
              <thead>
                <tr>
                  <th scope="col">{t("judgesPage.judge")}</th>
                  <th scope="col" className="num">
                    {t("judgesPage.scored")}
                  </th>
                  <th scope="col" className="num">
                    {t("judgesPage.meanScore")}
                  </th>
                  <th scope="col" className="num">
                    {t("judgesPage.shared")}
                  </th>
                  <th scope="col" className="num">
                    {t("judgesPage.meanDifference")}
                  </th>
                  <th scope="col" className="num">
                    {t("judgesPage.spread")}
                  </th>
                  <th scope="col">{t("judgesPage.calibration")}</th>
                </tr>
              </thead>
              <tbody>
                {judges.map((judge) => (
                  <tr key={judge.id} data-judge-id={judge.id} className={judge.outlier ? "calibration__row--outlier" : undefined}>
                    <JudgeCell judge={judge} />
                    <td className="num">{judge.scored}</td>
                    <td className="num">{decimal(judge.meanPercent)}</td>
                    <td className="num">{judge.shared}</td>
                    <td className="num">
                      <span dir="ltr">{signed(judge.meanDifference)}</span>
                    </td>
                    <td className="num">{decimal(judge.spread)}</td>
                    <td>
                      <Verdict judge={judge} minShared={rule.minShared} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </SideScroll>
          <section aria-labelledby="assignments-title" className="stack">
            <h2 id="assignments-title">{t("judgesPage.assignments")}</h2>
            <p>{t("judgesPage.assignmentsHint")}</p>
            <div className="dash-grid">
              {judges.map((judge) => (
                <AssignmentForm key={judge.id} judge={judge} />
              ))}
            </div>
          </section>
        </>
      )}
    </section>
  );
}

/** The judge's own cell (the row's header): their name, and what they are assigned to score. */
function JudgeCell({ judge }: { judge: Judge }) {
  const { waves, categories } = judge.assignment;
  const { t } = useT();
  const scope = [waves.length ? t("judgesPage.scopeGates", { gates: waves.join(", ") }) : null, categories.length ? categories.join(", ") : null]
    .filter(Boolean)
    .join(" · ");
  return (
    <th scope="row" className="calibration__judge">
      <span dir="auto">{judge.name}</span>
      {judge.role === "admin" ? <span className="muted"> {t("judgesPage.admin")}</span> : null}
      <br />
      <span className="muted">{scope ? t("judgesPage.scores", { scope }) : t("judgesPage.scoresEverything")}</span>
    </th>
  );
}


/** One judge's assignment: gates and categories to tick (none: everything). Works without JavaScript. */
function AssignmentForm({ judge }: { judge: Judge }) {
  const answer = useActionReply<typeof action>();
  const mine = answer?.initialValue?.judgeId === String(judge.id) ? answer : undefined;
  const error = mine && "error" in mine ? Object.values(mine.error ?? {}).flat()[0] : undefined;
  const { t } = useT();
  const serverMessage = useServerMessage();
  return (
    <Form method="post" className="assignment card" aria-label={t("judgesPage.assignmentOf", { name: judge.name })}>
      <input type="hidden" name="judgeId" value={judge.id} />
      <h3>
        <bdi>{judge.name}</bdi>
      </h3>
      <fieldset>
        <legend>{t("judgesPage.gates")}</legend>
        {[1, 2, 3, 4, 5].map((wave) => (
          <label key={wave} className="checkbox">
            <input type="checkbox" name="waves" value={wave} defaultChecked={judge.assignment.waves.includes(wave)} /> {wave}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>{t("judgesPage.categories")}</legend>
        {(["AI", "CS", "PS", "GD"] as const).map((category) => (
          <label key={category} className="checkbox">
            <input type="checkbox" name="categories" value={category} defaultChecked={judge.assignment.categories.includes(category)} />{" "}
            {categoryLabel(category, t)}
          </label>
        ))}
      </fieldset>
      {error ? (
        <p className="error-list__item" role="alert">
          {serverMessage(error)}
        </p>
      ) : null}
      <ActionButton type="submit" variant="subtle">
        {t("judgesPage.save", { name: judge.name })}
      </ActionButton>
    </Form>
  );
}

function Verdict({ judge, minShared }: { judge: Judge; minShared: number }) {
  const { t } = useT();
  if (judge.outlier) {
    return <strong className="calibration__outlier">{judge.meanDifference! < 0 ? t("judgesPage.outlierHarsher") : t("judgesPage.outlierGenerous")}</strong>;
  }
  if (judge.shared === 0) return <span className="muted">{t("judgesPage.nothingShared")}</span>;
  if (judge.shared < minShared) return <span className="muted">{t("judgesPage.tooFewShared")}</span>;
  return <span className="muted">{t("judgesPage.inLine")}</span>;
}
