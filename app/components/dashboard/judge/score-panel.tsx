import type { SubmissionResult } from "@conform-to/react";
import { Form, useNavigation } from "@remix-run/react";
import { useActionReply } from "~/components/action-reply";
import { useEffect, useRef, useState } from "react";
import { Trans } from "react-i18next";
import { useFormats } from "~/components/realtime/format";
import { useT } from "~/components/i18n";
import { useServerMessage } from "~/components/server-message";
import { submissionStatusKeys } from "~/components/participant/category";
import { ActionButton } from "~/components/ui/action-button";
import { rubricScoreCenti } from "~/modules/scoring/rubric";
import { SOLVE_THRESHOLD_PERCENT } from "~/modules/scoring/rules";
import { SCORE_INPUT, useAt, type Current } from "./format";

/** What the workspace's action answers on the page (app/glue/judge-workspace.server.ts): a claim's renewal, or a refused score with what was typed. */
type WorkspaceAnswer = { renewed: boolean } | SubmissionResult<string[]>;

export function ScorePanel({ current, next, inQueue, timeZone, formAction }: { current: Current; next: number | null; inQueue: boolean; timeZone: string; formAction: string }) {
  const { t } = useT();
  const format = useFormats();
  const at = useAt();
  const serverMessage = useServerMessage();
  const answer = useActionReply<WorkspaceAnswer>();
  const result = answer && "renewed" in answer ? undefined : answer;
  const navigation = useNavigation();
  const sending = navigation.state === "submitting" && navigation.formMethod?.toUpperCase() === "POST";
  // A refusal for this submission comes back with what was typed.
  const mineResult = result?.initialValue?.submissionId === String(current.id) ? result : undefined;
  const errors = mineResult && "error" in mineResult ? mineResult.error : undefined;
  const scoreError = errors?.score?.[0];
  const formError = errors?.[""]?.[0] ?? errors?.submissionId?.[0];
  const typed = (name: string) => {
    const value = mineResult?.initialValue?.[name];
    return typeof value === "string" ? value : undefined;
  };
  // Criterion scores come back nested ("criteria.12" is criteria → 12).
  const typedCriteria = (id: number) => {
    const nested = mineResult?.initialValue?.criteria;
    const value = nested && typeof nested === "object" && !Array.isArray(nested) ? (nested as Record<string, unknown>)[String(id)] : undefined;
    return typeof value === "string" ? value : undefined;
  };
  const points = current.challenge.points;
  const solvedAt = (SOLVE_THRESHOLD_PERCENT * points) / 100;
  const mine = current.mine;
  // The first score input has the focus for the keyboard, without scrolling to it: on a phone the page opens on
  // the team and challenge heading above (the side panel comes after the work there).
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    formRef.current?.querySelector<HTMLInputElement>('input[type="number"]')?.focus({ preventScroll: true });
  }, [current.id]);
  return (
    <Form ref={formRef} method="post" action={formAction} className="judge__score card" aria-labelledby="score-title" key={current.id}>
      <h2 id="score-title">{t("judgeWorkspace.scoreHeading")}</h2>
      <input type="hidden" name="submissionId" value={current.id} />
      <input type="hidden" name="revision" value={current.revisedAt.toISOString()} />
      {current.rubric.length ? (
        <RubricInputs current={current} errors={errors} typed={typedCriteria} />
      ) : (
        <>
          <label htmlFor={SCORE_INPUT} className="field__label">
            {t("judgeWorkspace.scoreRange", { points })}
          </label>
          <input
            id={SCORE_INPUT}
            name="score"
            type="number"
            inputMode="decimal"
            min={0}
            max={points}
            step="0.01"
            required
            dir="ltr"
            defaultValue={typed("score") ?? (mine ? String(mine.scoreCenti / 100) : "")}
            aria-invalid={scoreError ? true : undefined}
            aria-describedby={`${SCORE_INPUT}-range${scoreError ? ` ${SCORE_INPUT}-error` : ""}`}
            className="field__input judge__score-input"
          />
          <p id={`${SCORE_INPUT}-range`} className="muted judge__range">
            {t("judgeWorkspace.rangeNote", { points, solvedAt: format.points(solvedAt), percent: SOLVE_THRESHOLD_PERCENT })}
          </p>
        </>
      )}
      {scoreError ? (
        <p id={`${SCORE_INPUT}-error`} className="error-list__item" role="alert">
          {serverMessage(scoreError)}
        </p>
      ) : null}
      <label htmlFor="judge-comment" className="field__label">
        {t("judgeWorkspace.comment")}
      </label>
      <input id="judge-comment" name="comment" type="text" dir="auto" maxLength={2000} defaultValue={typed("comment") ?? mine?.comment ?? ""} className="field__input" />
      <label htmlFor="judge-verdict" className="field__label">
        {t("judgeWorkspace.status")}
      </label>
      <select id="judge-verdict" name="verdict" defaultValue={typed("verdict") ?? ""} className="field__input field__input--select">
        <option value="">{current.status === "pending" ? t("judgeWorkspace.verdict.byDefault") : t("judgeWorkspace.verdict.keep", { status: t(submissionStatusKeys[current.status]) })}</option>
        <option value="approved">{t("judgeWorkspace.verdict.approve")}</option>
        <option value="rejected">{t("judgeWorkspace.verdict.reject")}</option>
        <option value="reviewed">{t("judgeWorkspace.verdict.review")}</option>
      </select>
      {formError ? (
        <p className="error-list__item" role="alert">
          {serverMessage(formError)}
        </p>
      ) : null}
      <ActionButton type="submit" disabled={sending}>
        {sending ? t("judgeWorkspace.saving") : next !== null || !inQueue ? t("judgeWorkspace.saveNext") : t("judgeWorkspace.save")}
      </ActionButton>
      {mine ? <p className="muted">{t("judgeWorkspace.yourScore", { score: format.points(mine.scoreCenti / 100), when: at(mine.scoredAt, timeZone) })}</p> : null}
    </Form>
  );
}

/**
 * A rubric challenge's score box: one input a criterion (the first has the focus), and the score they make,
 * worked out as the judge types (the server works it out again: app/modules/scoring/rubric.ts).
 */
function RubricInputs({
  current,
  errors,
  typed,
}: {
  current: Current;
  errors: Record<string, string[] | null | undefined> | undefined;
  typed: (criterionId: number) => string | undefined;
}) {
  const { t } = useT();
  const format = useFormats();
  const serverMessage = useServerMessage();
  const initial = (id: number) => typed(id) ?? (current.mine?.criteria[id] !== undefined ? String(current.mine.criteria[id] / 100) : "");
  const [values, setValues] = useState<Record<number, string>>(() => Object.fromEntries(current.rubric.map((criterion) => [criterion.id, initial(criterion.id)])));
  const given = new Map<number, number>();
  for (const criterion of current.rubric) {
    const value = Number(values[criterion.id]);
    if (values[criterion.id]?.trim() && Number.isFinite(value) && value >= 0 && value <= criterion.maxPoints) given.set(criterion.id, Math.round(value * 100));
  }
  const total = given.size === current.rubric.length ? rubricScoreCenti(current.challenge.points, current.rubric, given) / 100 : null;
  return (
    <fieldset className="judge__rubric">
      <legend>{t("judgeWorkspace.rubric")}</legend>
      {current.rubric.map((criterion, index) => {
        const id = index === 0 ? SCORE_INPUT : `criterion-${criterion.id}`;
        const error = errors?.[`criteria.${criterion.id}`]?.[0];
        return (
          <div key={criterion.id} className="judge__criterion">
            <label htmlFor={id} className="field__label">
              <Trans
                i18nKey="judgeWorkspace.criterion"
                values={{ name: criterion.name, max: criterion.maxPoints, weight: criterion.weight }}
                components={{ name: <bdi /> }}
              />
            </label>
            <input
              id={id}
              name={`criteria.${criterion.id}`}
              type="number"
              inputMode="decimal"
              min={0}
              max={criterion.maxPoints}
              step="0.01"
              required
              dir="ltr"
              defaultValue={initial(criterion.id)}
              onInput={(event) => {
                const value = event.currentTarget.value;
                setValues((before) => ({ ...before, [criterion.id]: value }));
              }}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
              className="field__input"
            />
            {error ? (
              <p id={`${id}-error`} className="error-list__item" role="alert">
                {serverMessage(error)}
              </p>
            ) : null}
          </div>
        );
      })}
      <p className="judge__range" aria-live="polite">
        {total === null
          ? t("judgeWorkspace.rubricPending", { points: current.challenge.points })
          : t("judgeWorkspace.rubricTotal", { score: format.points(total), points: current.challenge.points })}
      </p>
    </fieldset>
  );
}
