import { Form, useLocation, useNavigation, useRevalidator } from "@remix-run/react";
import { useActionReply } from "~/components/action-reply";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { Trans } from "react-i18next";
import { useT } from "~/components/i18n";
import { categoryLabel, submissionStatusKeys } from "~/components/participant/category";
import { ChallengeQuestions } from "~/components/participant/challenge-questions";
import { FlagAnswerCard } from "~/components/participant/flag-answer";
import { SubmissionFeedbackCard } from "~/components/participant/submission-feedback";
import { useFormats } from "~/components/realtime/format";
import { useServerMessage } from "~/components/server-message";
import { showAppToast } from "~/components/toaster";
import { ActionButton, ActionLink } from "~/components/ui/action-button";
import { Message } from "~/components/ui/message";
import { TitleBar } from "~/components/ui/title-bar";
import type { challengePageIn } from "~/modules/participant/board.server";
import type { announcementsIn } from "~/modules/announcements/announcements.server";
import type { FlagFigures } from "~/modules/flags/figures.server";
import { FirstSolvers } from "~/components/participant/first-solvers";
import { PaidHints } from "~/components/participant/paid-hints";
import type { SubmissionsWindow } from "~/modules/settings/settings.server";

type Upload = { state: "idle" } | { state: "uploading"; percent: number };

/** What the page's loader gives. */
export type SubmissionPageData = ReturnType<typeof challengePageIn> & {
  canSubmit: boolean;
  maxBytes: number;
  submissions: SubmissionsWindow;
  answers: ReturnType<typeof announcementsIn>;
  figures: FlagFigures | null;
};

/** What the form's plain post (without JavaScript) answers when refused: the message, and the text typed. */
type RefusedPost = { error: string; text: string };

/**
 * A challenge's page (/submition/:id): its script, hints and file, the team's submission and its form
 * (with JavaScript, sent with XMLHttpRequest for a progress bar), its feedback once published, and the
 * challenge's questions.
 */
export function SubmissionScreen({ challenge, submission, flag, canSubmit, maxBytes, submissions: deadline, answers, paidHints, figures, locked }: SubmissionPageData) {
  const { t } = useT();
  const format = useFormats();
  const serverMessage = useServerMessage();
  const closesAt = deadline.closesAt ? format.dayTime(deadline.closesAt, deadline.timeZone) : null;
  const actionData = useActionReply<Partial<RefusedPost>>();
  const navigation = useNavigation();
  const location = useLocation();
  const { revalidate } = useRevalidator();
  const formRef = useRef<HTMLFormElement>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [upload, setUpload] = useState<Upload>({ state: "idle" });
  const [succeeded, setSucceeded] = useState(false);
  const [formKey, setFormKey] = useState(0);

  const exists = submission !== null;
  const pending = navigation.state === "submitting" || upload.state === "uploading";
  const showBanner = succeeded || new URLSearchParams(location.search).has("submitted");

  useEffect(() => {
    if (actionData?.error) showAppToast({ type: "error", title: t("participant.errorPrefix", { message: serverMessage(actionData.error) }) });
  }, [actionData, t, serverMessage]);

  function onFileChange(event: React.ChangeEvent<HTMLInputElement>) {
    const file = event.currentTarget.files?.[0];
    setFileError(file && file.size > maxBytes ? t("submission.fileTooLarge") : null);
  }

  /** With JavaScript: the same multipart form, sent with XMLHttpRequest so the upload shows its progress. */
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (fileError || pending) return;
    const form = event.currentTarget;
    const request = new XMLHttpRequest();
    request.open("POST", `/submition/${challenge.id}/upload`);
    request.responseType = "json";
    request.upload.onprogress = (progress) => {
      if (progress.lengthComputable) setUpload({ state: "uploading", percent: Math.round((progress.loaded / progress.total) * 100) });
    };
    request.onload = () => {
      setUpload({ state: "idle" });
      const body = request.response as { ok?: boolean; message?: string } | null;
      if (request.status === 200 && body?.ok) {
        showAppToast({ type: "success", title: body.message ? serverMessage(body.message) : t("submission.created") });
        setSucceeded(true);
        setFileError(null);
        setFormKey((key) => key + 1);
        revalidate();
      } else if (body?.message) {
        showAppToast({ type: "error", title: t("participant.errorPrefix", { message: serverMessage(body.message) }) });
      } else {
        showAppToast({ type: "error", title: t("submission.failed") });
      }
    };
    request.onerror = () => {
      setUpload({ state: "idle" });
      showAppToast({ type: "error", title: t("submission.failed") });
    };
    setSucceeded(false);
    setUpload({ state: "uploading", percent: 0 });
    request.send(new FormData(form));
  }

  const header = (
    <>
      <div className="gate-board__bar">
        <ActionLink to={`/gate/${challenge.wave}`} variant="subtle">
          {t("common.back")}
        </ActionLink>
      </div>
      <TitleBar title={<bdi>{challenge.title}</bdi>} />
    </>
  );
  if (locked) {
    // Locked for the team (docs/domain.md "Gates and challenges"): its title and what it requires, nothing else.
    return (
      <main className="page participant-page submission-page">
        {header}
        <Message tone="error">{t("challenge.lockedUntil", { titles: locked.map((title) => title ?? t("challenge.notOpenYet")).join(", ") })}</Message>
      </main>
    );
  }

  const buttonLabel = exists ? (pending ? t("submission.updating") : t("submission.update")) : pending ? t("submission.submitting") : t("submission.submit");
  const isGD = challenge.category === "GD";

  return (
    <main className="page participant-page submission-page">
      {header}
      {showBanner ? (
        <Message tone="correct" className="submission-banner">
          {t("submission.submitted")}
        </Message>
      ) : null}
      <div className="submission-layout">
        <section className="card stack" aria-labelledby="challenge-script">
          <p className="muted">
            {categoryLabel(challenge.category, t)}
            {figures ? (
              <>
                {" · "}
                <span className="ltr">{t("flag.worth", { points: format.points(figures.value) })}</span>
                {" · "}
                {t("flag.solvedBy", { count: figures.solves })}
              </>
            ) : null}
          </p>
          {figures && figures.firsts.length > 0 ? <FirstSolvers firsts={figures.firsts} /> : null}
          <h2 id="challenge-script">{t("submission.script")}</h2>
          <p className="submission-page__prose" dir="auto">
            {challenge.description}
          </p>
          {challenge.hints ? (
            <>
              <h2>{isGD ? t("submission.criteria") : t("submission.hints")}</h2>
              <p className="submission-page__prose" dir="auto">
                {challenge.hints}
              </p>
            </>
          ) : null}
          <PaidHints hints={paidHints} canUnlock={canSubmit && deadline.open} />
          <h2>{t("submission.requirementFile")}</h2>
          {challenge.hasAttachment ? (
            <p>
              <a href={`/challenge/${challenge.id}/attachment`} download>
                {challenge.attachmentName ? (
                  <Trans i18nKey="submission.download" values={{ name: challenge.attachmentName }} components={{ name: <bdi /> }} />
                ) : (
                  t("submission.downloadRequirement")
                )}
              </a>
            </p>
          ) : (
            <p className="message--error no-file">{t("submission.noFile")}</p>
          )}
        </section>

        {challenge.checking === "metric" ? (
          <section className="card stack" aria-labelledby="predictions-link">
            <h2 id="predictions-link">{t("predictions.send")}</h2>
            <p>{t("predictions.onChallenge")}</p>
            <p>
              <ActionLink to={`/predictions/${challenge.id}`}>{t("predictions.openPage")}</ActionLink>
            </p>
          </section>
        ) : challenge.checking === "tests" ? (
          <section className="card stack" aria-labelledby="code-link">
            <h2 id="code-link">{t("code.send")}</h2>
            <p>{t("code.onChallenge")}</p>
            <p>
              <ActionLink to={`/code/${challenge.id}`}>{t("code.openPage")}</ActionLink>
            </p>
          </section>
        ) : challenge.checking === "flag" ? (
          <FlagAnswerCard
            state={flag}
            timeZone={deadline.timeZone}
            disabledReason={
              flag?.solvedAt
                ? null
                : !deadline.open && closesAt
                  ? t("participant.submissionsClosedAt", { when: closesAt })
                  : !canSubmit
                    ? t("flag.noTeam")
                    : null
            }
          />
        ) : (
          <section className="card stack" aria-labelledby="your-submission">
            <h2 id="your-submission">{t("submission.yours")}</h2>
            {submission ? (
              <dl className="own-submission">
                <div>
                  <dt>{t("status.title")}</dt>
                  <dd className={`status status--${submission.status}`}>{t(submissionStatusKeys[submission.status] ?? "submission.statuses.pending")}</dd>
                </div>
                {submission.text ? (
                  <div>
                    <dt>{t("submission.text")}</dt>
                    <dd className="submission-page__prose" dir="auto">
                      {submission.text}
                    </dd>
                  </div>
                ) : null}
                {submission.hasFile ? (
                  <div>
                    <dt>{t("submission.file")}</dt>
                    <dd>
                      <a href={`/submissions/${submission.id}/file`} download>
                        {submission.fileName ? <bdi>{submission.fileName}</bdi> : t("submission.downloadFile")}
                      </a>
                    </dd>
                  </div>
                ) : null}
              </dl>
            ) : (
              <p className="muted">{t("submission.nothingYet")}</p>
            )}
            {!deadline.open && closesAt ? (
              <Message tone="error" className="submissions-closed">
                {t("participant.submissionsClosedAt", { when: closesAt })}
              </Message>
            ) : !canSubmit ? (
              <p className="message message--error">{t("submission.noTeam")}</p>
            ) : (
              <Form
                key={formKey}
                ref={formRef}
                method="post"
                encType="multipart/form-data"
                className="form"
                onSubmit={onSubmit}
                aria-describedby={actionData?.error ? "submission-error" : undefined}
              >
                {/* The text goes first in the multipart body: if the file is cut at the limit, the text still comes back. */}
                <div className="field">
                  <label className="field__label" htmlFor="submission-text">
                    {t("submission.text")}
                  </label>
                  <textarea
                    id="submission-text"
                    name="text"
                    className="field__input field__input--textarea"
                    placeholder={t("submission.textPlaceholder")}
                    dir="auto"
                    defaultValue={actionData?.text ?? ""}
                    maxLength={20000}
                  />
                </div>
                <div className="field">
                  <label className="field__label" htmlFor="submission-file">
                    {t("submission.attach")}
                  </label>
                  <input
                    id="submission-file"
                    name="file"
                    type="file"
                    className="field__input"
                    onChange={onFileChange}
                    aria-invalid={fileError ? true : undefined}
                    aria-describedby={fileError ? "submission-file-error" : undefined}
                  />
                  <div className="field__errors">
                    {fileError ? (
                      <p id="submission-file-error" role="alert" className="error-list__item">
                        {fileError}
                      </p>
                    ) : null}
                  </div>
                </div>
                {actionData?.error ? (
                  <Message tone="error" id="submission-error">
                    {t("participant.errorPrefix", { message: serverMessage(actionData.error) })}
                  </Message>
                ) : null}
                {upload.state === "uploading" ? (
                  <div className="upload-progress">
                    <progress max={100} value={upload.percent} aria-label={t("submission.progress")} />
                    <span aria-hidden="true">{`${upload.percent}%`}</span>
                  </div>
                ) : null}
                <ActionButton type="submit" disabled={pending || Boolean(fileError)}>
                  {buttonLabel}
                </ActionButton>
                {closesAt ? <p className="muted">{t("submission.closesAt", { when: closesAt })}</p> : null}
              </Form>
            )}
          </section>
        )}
        {/* Null until an admin publishes the feedback of this challenge's gate: nothing of it is in the page's data before. */}
        {submission?.feedback ? <SubmissionFeedbackCard feedback={submission.feedback} /> : null}
      </div>
      <ChallengeQuestions challengeId={challenge.id} answers={answers} canAsk={canSubmit} timeZone={deadline.timeZone} />
    </main>
  );
}
