import { useT } from "~/components/i18n";
import { useFormats } from "~/components/realtime/format";
import type { SubmissionFeedback } from "~/modules/judging/feedback.server";

/**
 * The judging feedback on the team's own submission, once an admin publishes its gate's (docs/domain.md
 * "Feedback to teams"): the score (the judges' mean), the mean per rubric criterion, and each judge's score
 * and comment, judges named by number only.
 */
export function SubmissionFeedbackCard({ feedback }: { feedback: SubmissionFeedback }) {
  const scored = feedback.meanCenti !== null;
  const { t } = useT();
  const format = useFormats();
  const formatPoints = format.points;
  const points = (centi: number) => format.points(centi / 100);
  return (
    <section className="card stack feedback" aria-labelledby="feedback-title">
      <h2 id="feedback-title">{t("feedback.title")}</h2>
      {feedback.rejected ? (
        // Not an alert: it is what the page says, not news that just happened.
        <p className="message message--error feedback__rejected">{t("feedback.rejected")}</p>
      ) : null}
      {!scored ? (
        feedback.rejected ? null : <p className="feedback__unscored muted">{t("feedback.notScored")}</p>
      ) : (
        <p className="feedback__score">
          <span className="feedback__label">{feedback.rejected ? t("feedback.judgesMean") : t("feedback.score")}</span>
          <strong className="feedback__value">{points(feedback.meanCenti!)}</strong>
          <span className="muted">{` / ${formatPoints(feedback.points)}`}</span>
          <span className="muted feedback__count">
            {t("feedback.judgeCount", { count: feedback.judges.length })}
          </span>
        </p>
      )}
      {scored && feedback.criteria.length > 0 ? (
        <div className="table-wrap">
          <table className="table feedback__criteria">
            <caption>{t("feedback.perCriterion")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("feedback.criterion")}</th>
                <th scope="col" className="num">
                  {t("feedback.score")}
                </th>
              </tr>
            </thead>
            <tbody>
              {feedback.criteria.map((criterion) => (
                <tr key={criterion.name}>
                  <th scope="row" dir="auto">
                    {criterion.name}
                  </th>
                  <td className="num nowrap">
                    {criterion.meanCenti === null ? "—" : points(criterion.meanCenti)}
                    <span className="muted">{` / ${formatPoints(criterion.maxPoints)}`}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {feedback.judges.length > 0 ? (
        <ol className="list-reset feedback__judges" aria-label={t("feedback.comments")}>
          {feedback.judges.map((judge) => (
            <li key={judge.number} className="feedback__judge">
              <div className="feedback__judge-head">
                <h3>{t("feedback.judge", { number: judge.number })}</h3>
                <span className="nowrap">
                  <strong>{points(judge.scoreCenti)}</strong>
                  <span className="muted">{` / ${formatPoints(feedback.points)}`}</span>
                </span>
              </div>
              {judge.comment ? (
                <p className="submission-page__prose feedback__comment" dir="auto">
                  {judge.comment}
                </p>
              ) : (
                <p className="muted feedback__comment">{t("feedback.noComment")}</p>
              )}
              {judge.earlierVersion ? <p className="muted feedback__note">{t("feedback.earlierVersion")}</p> : null}
            </li>
          ))}
        </ol>
      ) : null}
    </section>
  );
}
