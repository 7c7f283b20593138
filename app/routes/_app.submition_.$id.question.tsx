import { getFormProps, getTextareaProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useLoaderData, useNavigation } from "@remix-run/react";
import { useActionReply } from "~/components/action-reply";
import { RouteErrorPage } from "~/components/status-page";
import { ActionButton, ActionLink } from "~/components/ui/action-button";
import { TextareaField } from "~/components/ui/field";
import { Message } from "~/components/ui/message";
import { TitleBar } from "~/components/ui/title-bar";
import { parseRowId } from "~/modules/ids";
import { messages } from "~/modules/messages";
import { getChallengeForSubmission } from "~/modules/participant/board.server";
import { inLanguage } from "~/modules/i18n/content";
import { languageOf } from "~/glue/language.server";
import { QuestionSchema } from "~/modules/requests/schema";
import { askQuestion } from "~/modules/requests/threads.server";
import { requirePage } from "~/glue/auth.server";
import { formFailure } from "~/glue/failures.server";
import { notFound } from "~/glue/responses.server";
import { redirectWithToast } from "~/glue/toast.server";
import { useT } from "~/components/i18n";
import { Trans } from "react-i18next";
import { useServerMessage } from "~/components/server-message";
import { pageTitle } from "~/modules/i18n/i18n";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "meta.ask") }];

function challengeIdOf(param: string | undefined): number {
  const id = parseRowId(param);
  if (!id) throw notFound();
  return id;
}

/** A question about a challenge the viewer can see; its page's form posts here (and lands here without JavaScript when refused). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requirePage(request);
  const found = await getChallengeForSubmission(challengeIdOf(params.id), user);
  if (!found) throw notFound();
  return { challenge: { id: found.challenge.id, title: inLanguage(languageOf(request), found.challenge.title, found.challenge.titleAr) }, canAsk: user.teamId !== null };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requirePage(request);
  const challengeId = challengeIdOf(params.id);
  const submission = parseWithZod(await request.formData(), { schema: QuestionSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  let threadId: number;
  try {
    threadId = await askQuestion(user, challengeId, submission.value.message);
  } catch (error) {
    const failed = formFailure(submission, error, { log: "question not saved", fallback: messages.errors.server });
    return data(failed.result, failed.init);
  }
  return redirectWithToast(`/threads/${threadId}`, { type: "success", title: messages.threads.asked });
}

export default function AskQuestion() {
  const { challenge, canAsk } = useLoaderData<typeof loader>();
  const lastResult = useActionReply<typeof action>();
  const navigation = useNavigation();
  const { t } = useT();
  const serverMessage = useServerMessage();
  const [form, fields] = useForm({
    id: "ask-question",
    lastResult,
    constraint: getZodConstraint(QuestionSchema),
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: QuestionSchema }),
  });
  return (
    <main className="page participant-page">
      <TitleBar title={t("ask.title")} />
      <section className="card stack thread-page">
        <p>
          <Trans i18nKey="ask.about" values={{ title: challenge.title }} components={{ title: <strong dir="auto" /> }} />
        </p>
        {canAsk ? (
          <Form method="post" {...getFormProps(form)} className="form">
            <TextareaField label={t("ask.question")} textareaProps={{ ...getTextareaProps(fields.message), rows: 4, maxLength: 2000, dir: "auto" }} errors={fields.message.errors} />
            <div className="message-slot" id={form.errorId} aria-live="polite">
              {form.errors?.[0] ? <Message tone="error">{serverMessage(form.errors[0])}</Message> : null}
            </div>
            <ActionButton type="submit" disabled={navigation.state === "submitting"}>
              {t("questions.submit")}
            </ActionButton>
          </Form>
        ) : (
          <Message tone="error">{t("ask.noTeam")}</Message>
        )}
        <ActionLink to={`/submition/${challenge.id}`} variant="subtle">
          {t("ask.back")}
        </ActionLink>
      </section>
    </main>
  );
}

export function ErrorBoundary() {
  return <RouteErrorPage />;
}
