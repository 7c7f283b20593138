import { getFormProps, getInputProps, getTextareaProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useLoaderData, useNavigation } from "@remix-run/react";
import { useActionReply } from "~/components/action-reply";
import { ActionButton } from "~/components/ui/action-button";
import { useT } from "~/components/i18n";
import { useServerMessage } from "~/components/server-message";
import { Field, TextareaField } from "~/components/ui/field";
import { VideosForm } from "~/components/videos-form";
import { ArabicTextFields } from "~/components/dashboard/arabic-fields";
import { createAnnouncement } from "~/modules/announcements/announcements.server";
import { AnnouncementSchema } from "~/modules/announcements/schema";
import { dashboardCounts } from "~/modules/dashboard/counts.server";
import { messages } from "~/modules/messages";
import { DashboardVideosSchema, OWN_VIDEO_PATH } from "~/modules/videos/schema";
import { getVideos } from "~/modules/videos/videos.server";
import { handleVideosForm } from "~/glue/home-forms.server";
import { actorOf } from "~/glue/actor.server";
import { requirePage } from "~/glue/auth.server";
import { dashboardFormFailure } from "~/glue/failures.server";
import { redirectWithToast } from "~/glue/toast.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requirePage(request);
  const [counts, videos] = await Promise.all([dashboardCounts(), getVideos()]);
  // A video of our own is stored as a path (/media/…): the form's URL inputs get it as a full URL.
  const shown = (url: string | null) => (url && OWN_VIDEO_PATH.test(url) ? new URL(url, request.url).href : (url ?? ""));
  return { counts, videos: { video1: shown(videos.video1), video2: shown(videos.video2) } };
}

/** Two forms post here: `intent` says which (the videos form and Send Announcement). */
export async function action({ request }: ActionFunctionArgs) {
  const admin = await requirePage(request);
  const formData = await request.formData();
  if (formData.get("intent") === "videos") return handleVideosForm(formData, DashboardVideosSchema, "/dashboard", actorOf(admin, request), new URL(request.url).origin);
  const submission = parseWithZod(formData, { schema: AnnouncementSchema });
  if (submission.status !== "success") return data({ intent: "announcement" as const, result: submission.reply() }, { status: 400 });
  try {
    await createAnnouncement(actorOf(admin, request), submission.value);
  } catch (error) {
    const failed = dashboardFormFailure(submission, error, { log: "announcement failed", fallback: messages.announcements.failed });
    return data({ intent: "announcement" as const, result: failed.result }, failed.init);
  }
  return redirectWithToast("/dashboard", { type: "success", title: messages.announcements.created });
}

/** This form's result only: the page's action serves two forms. */
function useResultFor(intent: "announcement" | "videos") {
  const actionData = useActionReply<typeof action>();
  return actionData?.intent === intent ? actionData.result : undefined;
}

function AnnouncementForm() {
  const { t } = useT();
  const serverMessage = useServerMessage();
  const lastResult = useResultFor("announcement");
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "announcement",
    lastResult,
    constraint: getZodConstraint(AnnouncementSchema),
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: AnnouncementSchema }),
  });
  const sending = navigation.state === "submitting" && navigation.formData?.get("intent") === "announcement";
  return (
    <section className="card" aria-labelledby="send-announcement-heading">
      <h2 id="send-announcement-heading">{t("dashboardHome.sendAnnouncement")}</h2>
      <Form method="post" action="/dashboard?index" {...getFormProps(form)} className="form">
        <input type="hidden" name="intent" value="announcement" />
        <Field label={t("dashboardHome.announcementTitle")} inputProps={{ ...getInputProps(fields.title, { type: "text" }), dir: "auto" }} errors={fields.title.errors} />
        <TextareaField label={t("dashboardHome.announcementContent")} textareaProps={{ ...getTextareaProps(fields.content), rows: 4, dir: "auto" }} errors={fields.content.errors} />
        <ArabicTextFields title={fields.titleAr} text={fields.contentAr} textLabel="dashboardMisc.arabic.contentAr" rows={4} />
        {form.errors ? (
          <p className="message message--error" role="alert">
            {serverMessage(form.errors[0])}
          </p>
        ) : null}
        <ActionButton type="submit" disabled={sending}>
          {sending ? t("common.sending") : t("dashboardHome.sendAnnouncement")}
        </ActionButton>
      </Form>
    </section>
  );
}

export default function DashboardHome() {
  const { counts, videos } = useLoaderData<typeof loader>();
  const videosResult = useResultFor("videos");
  const { t } = useT();
  const cards = [
    { key: "users", label: t("dashboardHome.users"), value: counts.users },
    { key: "challenges", label: t("dashboardHome.challenges"), value: counts.challenges },
    { key: "submissions", label: t("dashboardHome.submissions"), value: counts.submissions },
  ];
  return (
    <section aria-labelledby="dashboard-home-title" className="stack">
      <h1 id="dashboard-home-title">{t("dashboardHome.heading")}</h1>
      <ul className="stat-cards">
        {cards.map((card) => (
          <li key={card.key} className="card stat-card">
            <span className="stat-card__value">{card.value}</span>
            <span className="stat-card__label">{card.label}</span>
          </li>
        ))}
      </ul>
      <section className="card" aria-labelledby="videos-heading">
        <h2 id="videos-heading">{t("dashboardHome.videosHeading")}</h2>
        <VideosForm schema={DashboardVideosSchema} lastResult={videosResult} defaultValue={videos} action="/dashboard?index" />
      </section>
      <AnnouncementForm />
    </section>
  );
}
