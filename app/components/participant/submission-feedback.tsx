import { formatPoints } from "~/components/realtime/format";
import type { SubmissionFeedback } from "~/modules/judging/feedback.server";
import { messages } from "~/modules/messages";

const text = messages.participant;
const points = (centi: number) => formatPoints(centi / 100);

/**
 * The judging feedback on the team's own submission, once an admin publishes its gate's (docs/domain.md
 * "Feedback to teams"): the score (the judges' mean), the mean per rubric criterion, and each judge's score
 * and comment, judges named by number only.
 */
export function SubmissionFeedbackCard({ feedback }: { feedback: SubmissionFeedback }) {
  const scored = feedback.meanCenti !== null;
  return (
    <section className="card stack feedback" aria-labelledby="feedback-title">
      <h2 id="feedback-title">{text.feedbackTitle}</h2>
      {feedback.rejected ? (
        // Not an alert: it is what the page says, not news that just happened.
        <p className="message message--error feedback__rejected">{text.feedbackRejected}</p>
      ) : null}
      {!scored ? (
        feedback.rejected ? null : <p className="feedback__unscored muted">{text.feedbackNotScored}</p>
      ) : (
        <p className="feedback__score">
          <span className="feedback__label">{feedback.rejected ? "Judges' mean" : "Score"}</span>
          <strong className="feedback__value">{points(feedback.meanCenti!)}</strong>
          <span className="muted">{` / ${formatPoints(feedback.points)}`}</span>
          <span className="muted feedback__count">
            {feedback.judges.length === 1 ? "from 1 judge" : `the mean of ${feedback.judges.length} judges`}
          </span>
        </p>
      )}
      {scored && feedback.criteria.length > 0 ? (
        <div className="table-wrap">
          <table className="table feedback__criteria">
            <caption>Per criterion (the judges&apos; mean)</caption>
            <thead>
              <tr>
                <th scope="col">Criterion</th>
                <th scope="col" className="num">
                  Score
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
        <ol className="list-reset feedback__judges" aria-label="Judges' comments">
          {feedback.judges.map((judge) => (
            <li key={judge.number} className="feedback__judge">
              <div className="feedback__judge-head">
                <h3>{text.feedbackJudge(judge.number)}</h3>
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
                <p className="muted feedback__comment">{text.feedbackNoComment}</p>
              )}
              {judge.earlierVersion ? <p className="muted feedback__note">{text.feedbackEarlierVersion}</p> : null}
            </li>
          ))}
        </ol>
      ) : null}
    </section>
  );
}
