import { Form } from "@remix-run/react";
import { useFormats } from "~/components/realtime/format";
import { useT } from "~/components/i18n";
import { ActionButton } from "~/components/ui/action-button";
import { TextareaField } from "~/components/ui/field";
import type { AnnouncementShown } from "~/modules/realtime/events";
import { AppLink } from "~/components/ui/app-link";

/**
 * Under a challenge: the answers organisers published about it (announcements), and a question form that
 * posts to /submition/:id/question (a page of its own without JavaScript, so a refusal keeps the text).
 */
export function ChallengeQuestions({ challengeId, answers, canAsk, timeZone }: { challengeId: number; answers: AnnouncementShown[]; canAsk: boolean; timeZone: string }) {
  const { t } = useT();
  const format = useFormats();
  return (
    <section className="card challenge-questions" aria-labelledby="challenge-questions-heading">
      <h2 id="challenge-questions-heading">{t("questions.title")}</h2>
      {answers.length > 0 ? (
        <ul className="challenge-answers">
          {answers.map((answer) => (
            <li key={answer.id}>
              <AppLink to={`/announcement#announcement-${answer.id}`}>
                <bdi>{answer.title}</bdi>
              </AppLink>{" "}
              <span className="muted">
                <time dateTime={answer.createdAt}>{format.dayTime(answer.createdAt, timeZone)}</time>
              </span>
              <p dir="auto" className="challenge-answers__content">
                {answer.content}
              </p>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">{t("questions.none")}</p>
      )}
      {canAsk ? (
        <Form method="post" action={`/submition/${challengeId}/question`} className="form">
          <TextareaField
            label={t("questions.ask")}
            textareaProps={{ id: "challenge-question", name: "message", rows: 3, maxLength: 2000, required: true, dir: "auto" }}
          />
          <ActionButton type="submit" variant="subtle">
            {t("questions.submit")}
          </ActionButton>
        </Form>
      ) : null}
    </section>
  );
}
