import { getFormProps, getTextareaProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { useActionReply } from "~/components/action-reply";
import { ThreadMessages } from "~/components/thread-messages";
import { useRevalidateOn } from "~/components/realtime/revalidate-on";
import { RouteErrorPage } from "~/components/status-page";
import { ActionButton, ActionLink } from "~/components/ui/action-button";
import { TextareaField } from "~/components/ui/field";
import { Message } from "~/components/ui/message";
import { TitleBar } from "~/components/ui/title-bar";
import { parseRowId } from "~/modules/ids";
import { messages } from "~/modules/messages";
import { ReplySchema } from "~/modules/requests/schema";
import { getThread, isTeamThread, teamReply, threadChallengeIn } from "~/modules/requests/threads.server";
import { languageOf } from "~/glue/language.server";
import { getEventTimeZone } from "~/modules/settings/settings.server";
import { requirePage } from "~/glue/auth.server";
import { formFailure } from "~/glue/failures.server";
import { notFound } from "~/glue/responses.server";
import { redirectWithToast } from "~/glue/toast.server";
import { useT } from "~/components/i18n";
import { useServerMessage } from "~/components/server-message";
import { threadKindKeys, threadStatusKeys } from "~/components/participant/team-threads";
import { pageTitle } from "~/modules/i18n/i18n";

const m = messages.threads;

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "meta.thread") }];

function threadIdOf(param: string | undefined): number {
  const id = parseRowId(param);
  if (!id) throw notFound();
  return id;
}

/** A team's own thread (another team's is not found): its messages, its status, and the team's reply. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requirePage(request);
  const thread = await getThread(threadIdOf(params.id), { teamId: user.teamId });
  if (!thread) throw notFound();
  return {
    thread: {
      id: thread.id,
      kind: thread.kind,
      status: thread.status,
      message: thread.message,
      challenge: threadChallengeIn(thread, languageOf(request)),
      challengeId: thread.challengeId,
      // Organisers' names are logins: a team reads "an organiser", never whom to guess a password for.
      claimed: thread.claimedBy !== null,
      createdAt: thread.createdAt.toISOString(),
      replies: thread.replies.map((reply) => ({ id: reply.id, fromTeam: reply.fromTeam, body: reply.body, author: reply.fromTeam ? reply.author : null, createdAt: reply.createdAt.toISOString() })),
    },
    timeZone: await getEventTimeZone(),
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requirePage(request);
  const id = threadIdOf(params.id);
  if (!(await isTeamThread(id, user.teamId))) throw notFound();
  const submission = parseWithZod(await request.formData(), { schema: ReplySchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  try {
    await teamReply(user, id, submission.value.body);
  } catch (error) {
    const failed = formFailure(submission, error, { log: "team reply failed", fallback: messages.errors.server });
    return data(failed.result, failed.init);
  }
  return redirectWithToast(`/threads/${id}`, { type: "success", title: m.teamReplied });
}

export default function TeamThread() {
  const { thread, timeZone } = useLoaderData<typeof loader>();
  const lastResult = useActionReply<typeof action>();
  const navigation = useNavigation();
  const location = useLocation();
  // An organiser's claim, reply or close shows here at once.
  useRevalidateOn("thread:changed", 1000);
  const { t } = useT();
  const serverMessage = useServerMessage();
  const [form, fields] = useForm({
    id: `thread-${thread.id}-${location.key}`,
    lastResult,
    constraint: getZodConstraint(ReplySchema),
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ReplySchema }),
  });
  return (
    <main className="page participant-page">
      <TitleBar
        title={
          <>
            {t(threadKindKeys[thread.kind])}
            {thread.challenge ? (
              <>
                : <bdi>{thread.challenge}</bdi>
              </>
            ) : null}
          </>
        }
      />
      <section className="card stack thread-page">
        <p className="thread-meta" role="status" data-testid="thread-status">
          <strong>{t(threadStatusKeys[thread.status])}</strong>
          {thread.status === "claimed" && thread.claimed ? <span> · {t("thread.onIt")}</span> : null}
        </p>
        <ThreadMessages
          timeZone={timeZone}
          messages={[
            { key: "first", fromTeam: true, who: t("thread.yourTeam"), body: thread.message, createdAt: thread.createdAt },
            ...thread.replies.map((reply) => ({ key: reply.id, fromTeam: reply.fromTeam, who: reply.fromTeam ? (reply.author ?? t("thread.yourTeam")) : t("thread.anOrganiser"), body: reply.body, createdAt: reply.createdAt })),
          ]}
        />
        {thread.status === "closed" ? (
          <p className="muted">{t("thread.closed")}</p>
        ) : (
          <Form method="post" {...getFormProps(form)} className="form">
            <TextareaField label={t("thread.answerBack")} textareaProps={{ ...getTextareaProps(fields.body), rows: 3, maxLength: 4000, dir: "auto" }} errors={fields.body.errors} />
            <div className="message-slot" id={form.errorId} aria-live="polite">
              {form.errors?.[0] ? <Message tone="error">{serverMessage(form.errors[0])}</Message> : null}
            </div>
            <ActionButton type="submit" disabled={navigation.state === "submitting"}>
              {t("common.send")}
            </ActionButton>
          </Form>
        )}
        <div className="row-actions">
          <ActionLink to="/home" variant="subtle">
            {t("thread.yours")}
          </ActionLink>
          {thread.challengeId ? (
            <ActionLink to={`/submition/${thread.challengeId}`} variant="subtle">
              {t("thread.challenge")}
            </ActionLink>
          ) : null}
        </div>
      </section>
    </main>
  );
}

export function ErrorBoundary() {
  return <RouteErrorPage />;
}
