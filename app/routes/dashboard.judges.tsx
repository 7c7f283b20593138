import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { ActionButton } from "~/components/ui/action-button";
import { requirePage } from "~/glue/auth.server";
import { dashboardFormFailure } from "~/glue/failures.server";
import { redirectWithToast } from "~/glue/toast.server";
import { AssignmentSchema, listAssignments, setAssignment } from "~/modules/judging/assignments.server";
import { categoryLabels } from "~/modules/challenges/schema";
import { messages } from "~/modules/messages";
import { judgeCalibration, OUTLIER_MIN_DIFFERENCE, OUTLIER_MIN_SHARED } from "~/modules/judging/calibration.server";
import styles from "~/styles/dashboard.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];
export const meta: MetaFunction = () => [{ title: "Judges · Gatekeeper Dashboard" }];

export const handle = { loadFailed: "The judges' calibration could not be loaded." };

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
  return (
    <section aria-labelledby="judges-title" className="stack dash-page">
      <h1 id="judges-title">Judges</h1>
      <p>
        Each judge against the other judges on the same submissions, in percentage points (pp) of each challenge&apos;s points: a negative difference is
        harsher than the others, a positive one more generous; the spread is the standard deviation of those differences.
      </p>
      <p>
        <strong>
          A judge is an outlier when they share at least {rule.minShared} submissions with other judges and differ from them by {rule.minDifference}{" "}
          percentage points or more on average.
        </strong>
      </p>
      {judges.length === 0 ? (
        <p className="card">No judges yet: give a user the judge role on the Users page, and their scores are compared here.</p>
      ) : (
        <>
          {compared ? null : <p className="muted">No submission has been scored by two judges yet, so there is nothing to compare.</p>}
          {/* Scrolls sideways on a phone: focusable, so a keyboard scrolls it too. */}
          <div className="table-wrap" role="region" aria-labelledby="judges-caption" tabIndex={0}>
            <table className="table calibration">
              <caption id="judges-caption" className="visually-hidden">
                Judges, the largest difference from the other judges first
              </caption>
              <thead>
                <tr>
                  <th scope="col">Judge</th>
                  <th scope="col" className="num">
                    Scored
                  </th>
                  <th scope="col" className="num">
                    Mean score (%)
                  </th>
                  <th scope="col" className="num">
                    Shared
                  </th>
                  <th scope="col" className="num">
                    Mean difference (pp)
                  </th>
                  <th scope="col" className="num">
                    Spread (pp)
                  </th>
                  <th scope="col">Calibration</th>
                </tr>
              </thead>
              <tbody>
                {judges.map((judge) => (
                  <tr key={judge.id} data-judge-id={judge.id} className={judge.outlier ? "calibration__row--outlier" : undefined}>
                    <JudgeCell judge={judge} />
                    <td className="num">{judge.scored}</td>
                    <td className="num">{decimal(judge.meanPercent)}</td>
                    <td className="num">{judge.shared}</td>
                    <td className="num">{signed(judge.meanDifference)}</td>
                    <td className="num">{decimal(judge.spread)}</td>
                    <td>
                      <Verdict judge={judge} minShared={rule.minShared} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <section aria-labelledby="assignments-title" className="stack">
            <h2 id="assignments-title">Assignments</h2>
            <p>
              A judge with gates or categories ticked is handed only those submissions (with both, those categories within those gates); with none,
              every submission.
            </p>
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
  const scope = [waves.length ? `gates ${waves.join(", ")}` : null, categories.length ? categories.join(", ") : null].filter(Boolean).join(" · ");
  return (
    <th scope="row" className="calibration__judge">
      <span dir="auto">{judge.name}</span>
      {judge.role === "admin" ? <span className="muted"> (admin)</span> : null}
      <br />
      <span className="muted">{scope ? `Scores ${scope}` : "Scores everything"}</span>
    </th>
  );
}


/** One judge's assignment: gates and categories to tick (none: everything). Works without JavaScript. */
function AssignmentForm({ judge }: { judge: Judge }) {
  const answer = useActionData<typeof action>();
  const mine = answer?.initialValue?.judgeId === String(judge.id) ? answer : undefined;
  const error = mine && "error" in mine ? Object.values(mine.error ?? {}).flat()[0] : undefined;
  return (
    <Form method="post" className="assignment card" aria-label={`Assignment of ${judge.name}`}>
      <input type="hidden" name="judgeId" value={judge.id} />
      <h3 dir="auto">{judge.name}</h3>
      <fieldset>
        <legend>Gates</legend>
        {[1, 2, 3, 4, 5].map((wave) => (
          <label key={wave} className="checkbox">
            <input type="checkbox" name="waves" value={wave} defaultChecked={judge.assignment.waves.includes(wave)} /> {wave}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Categories</legend>
        {(["AI", "CS", "PS", "GD"] as const).map((category) => (
          <label key={category} className="checkbox">
            <input type="checkbox" name="categories" value={category} defaultChecked={judge.assignment.categories.includes(category)} />{" "}
            {categoryLabels[category]}
          </label>
        ))}
      </fieldset>
      {error ? (
        <p className="error-list__item" role="alert">
          {error}
        </p>
      ) : null}
      <ActionButton type="submit" variant="subtle">
        Save {judge.name}&apos;s assignment
      </ActionButton>
    </Form>
  );
}

function Verdict({ judge, minShared }: { judge: Judge; minShared: number }) {
  if (judge.outlier) {
    return <strong className="calibration__outlier">Outlier: {judge.meanDifference! < 0 ? "harsher" : "more generous"}</strong>;
  }
  if (judge.shared === 0) return <span className="muted">Nothing shared</span>;
  if (judge.shared < minShared) return <span className="muted">Too few shared</span>;
  return <span className="muted">In line</span>;
}
