import { getFormProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useFormats } from "~/components/realtime/format";
import { useT } from "~/components/i18n";
import { useServerMessage } from "~/components/server-message";
import { showAppToast } from "~/components/toaster";
import { ActionButton } from "~/components/ui/action-button";
import { TextareaField } from "~/components/ui/field";
import { Message } from "~/components/ui/message";
import { messages } from "~/modules/messages";
import { RequestSchema } from "~/modules/requests/schema";
import { youtubeEmbedUrl } from "~/modules/videos/embed";
import { WelcomeVideosSchema } from "~/modules/videos/schema";
import { VideosForm } from "~/components/videos-form";

export interface HomeContentData {
  meal: { label: string; at: string } | null;
  videos: string[];
  timeZone: string;
}

export type HomeActionData = { intent: "mentor" | "needs" | "videos" | (string & {}); result: SubmissionResult<string[]> } | undefined;

/** Videos, the next-meal card, and the call-a-mentor and Needs forms. */
export function HomeContent({
  content,
  actionData,
  canSaveVideos = false,
}: {
  content: HomeContentData;
  actionData: HomeActionData;
  canSaveVideos?: boolean;
}) {
  const { t } = useT();
  const format = useFormats();
  return (
    <div className="home-content">
      {canSaveVideos ? <SaveVideosForm actionData={actionData} /> : null}
      {content.videos.length ? (
        <section aria-labelledby="videos-heading" className="home-videos">
          <h2 id="videos-heading" className="visually-hidden">
            {t("home.videos")}
          </h2>
          {content.videos.map((url, index) => (
            <VideoPlayer key={url + index} url={url} title={t("home.eventVideo", { number: index + 1 })} />
          ))}
        </section>
      ) : null}
      <div className="home-grid">
        <section className="card meal-card" aria-labelledby="meal-heading">
          <h2 id="meal-heading">{t("home.nextMeal")}</h2>
          {content.meal ? (
            <p className="meal-card__next">
              <strong>
                <bdi>{content.meal.label}</bdi>
              </strong>{" "}
              <time dateTime={content.meal.at}>{format.dayTime(content.meal.at, content.timeZone)}</time>
            </p>
          ) : (
            <p className="muted">{t("home.noMeal")}</p>
          )}
        </section>
        <RequestForm intent="mentor" title={t("home.callMentor")} actionData={actionData} />
        <RequestForm intent="needs" title={t("home.needs")} actionData={actionData} />
      </div>
    </div>
  );
}

/** Admins only (docs/domain.md): replace one or both home videos; an empty field keeps the stored URL. */
function SaveVideosForm({ actionData }: { actionData: HomeActionData }) {
  const { t } = useT();
  return (
    <section className="card" aria-labelledby="videos-form-heading">
      <h2 id="videos-form-heading">{t("home.homeVideos")}</h2>
      <VideosForm schema={WelcomeVideosSchema} lastResult={actionData?.intent === "videos" ? actionData.result : undefined} />
    </section>
  );
}

function RequestForm({ intent, title, actionData }: { intent: "mentor" | "needs"; title: string; actionData: HomeActionData }) {
  const { t } = useT();
  const serverMessage = useServerMessage();
  const navigation = useNavigation();
  const lastResult = actionData?.intent === intent ? actionData.result : undefined;
  const [form, fields] = useForm({
    id: intent,
    lastResult,
    constraint: getZodConstraint(RequestSchema),
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: RequestSchema }),
  });
  const sending = navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  const failed = form.errors?.includes(messages.participant.requestFailed);
  useEffect(() => {
    if (failed) showAppToast({ type: "error", title: serverMessage(messages.participant.requestFailed) });
  }, [failed, lastResult, serverMessage]);
  return (
    <section className="card" aria-labelledby={`${intent}-heading`}>
      <h2 id={`${intent}-heading`}>{title}</h2>
      <Form method="post" {...getFormProps(form)} className="form">
        <input type="hidden" name="intent" value={intent} />
        <TextareaField
          label={t("home.message")}
          textareaProps={{ ...getTextareaProps(fields.message), rows: 3 }}
          errors={fields.message.errors}
        />
        {form.errors?.length ? <Message tone="error">{form.errors.map(serverMessage).join(" ")}</Message> : null}
        <ActionButton type="submit" disabled={sending}>
          {sending ? t("common.sending") : t("common.send")}
        </ActionButton>
      </Form>
    </section>
  );
}

/** A YouTube link as an embed (autoplay, muted, controls); any other URL as a <video> with a play overlay. */
export function VideoPlayer({ url, title }: { url: string; title: string }) {
  const { t } = useT();
  const embed = youtubeEmbedUrl(url);
  const video = useRef<HTMLVideoElement>(null);
  const [playing, setPlaying] = useState(false);
  if (embed) {
    return (
      <div className="video-frame">
        <iframe
          src={embed}
          title={title}
          allow="autoplay; encrypted-media; picture-in-picture; fullscreen"
          allowFullScreen
          loading="lazy"
        />
      </div>
    );
  }
  return (
    <div className="video-frame">
      <video
        ref={video}
        src={url}
        controls
        preload="metadata"
        aria-label={title}
        onPlay={() => setPlaying(true)}
        onEnded={() => setPlaying(false)}
      />
      {playing ? null : (
        <button type="button" className="video-frame__play" onClick={() => void video.current?.play()} aria-label={t("home.play", { title })}>
          <svg viewBox="0 0 64 64" aria-hidden="true" focusable="false">
            <circle cx="32" cy="32" r="30" fill="rgba(6,10,28,0.7)" stroke="currentColor" strokeWidth="3" />
            <path d="M26 20 L46 32 L26 44 Z" fill="currentColor" />
          </svg>
        </button>
      )}
    </div>
  );
}
