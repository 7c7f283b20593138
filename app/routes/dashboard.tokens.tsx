import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { useActionReply } from "~/components/action-reply";
import { useFormats } from "~/components/realtime/format";
import { useT } from "~/components/i18n";
import { useServerMessage } from "~/components/server-message";
import { pageTitle } from "~/modules/i18n/i18n";
import type { Role } from "~/modules/auth/access";
import { ActionButton } from "~/components/ui/action-button";
import { Field, SelectField } from "~/components/ui/field";
import { Message } from "~/components/ui/message";
import { ApiTokenCreateSchema, ApiTokenRevokeSchema } from "~/modules/api-tokens/schema";
import { createApiToken, listApiTokens, revokeApiToken } from "~/modules/api-tokens/tokens.server";
import { messages } from "~/modules/messages";
import { listUsers } from "~/modules/users/users.server";
import styles from "~/styles/dashboard.css";
import { requirePageActor } from "~/glue/actor.server";
import { SECRET_PAGE_HEADERS, secretPageHeaders } from "~/glue/secret-pages.server";
import { requirePage } from "~/glue/auth.server";
import { dashboardFormFailure, dashboardToastFailure } from "~/glue/failures.server";
import { redirectWithToast } from "~/glue/toast.server";
import { confirmSubmit } from "~/components/ui/confirm-submit";
import { SideScroll } from "~/components/ui/side-scroll";

const m = messages.apiTokens;

/** The page shows a secret once: neither it nor its `.data` answer may be kept by a cache. */
export const headers = secretPageHeaders;
export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];
export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "tokensPage.title") }];

/** A role beside a user's name. */
const roleKeys: Record<Role, string> = {
  admin: "tokensPage.roles.admin",
  judge: "tokensPage.roles.judge",
  mentor: "tokensPage.roles.mentor",
  participant: "tokensPage.roles.participant",
};

export async function loader({ request }: LoaderFunctionArgs) {
  await requirePage(request);
  const [tokens, users] = await Promise.all([listApiTokens(), listUsers()]);
  return {
    tokens: tokens.map((token) => ({
      ...token,
      createdAt: token.createdAt.toISOString(),
      lastUsedAt: token.lastUsedAt?.toISOString() ?? null,
      revokedAt: token.revokedAt?.toISOString() ?? null,
    })),
    users: users.map((user) => ({ id: user.id, name: user.name, role: user.role })),
  };
}

/** Creates a token (shown once, in this answer only) or revokes one. */
export async function action({ request }: ActionFunctionArgs) {
  const actor = await requirePageActor(request);
  const formData = await request.formData();
  if (formData.get("intent") === "revoke") {
    const parsed = ApiTokenRevokeSchema.safeParse(Object.fromEntries(formData));
    if (!parsed.success) throw new Response("Bad request", { status: 400 });
    try {
      await revokeApiToken(actor, parsed.data.id);
    } catch (error) {
      return dashboardToastFailure("/dashboard/tokens", error, "token revoke failed");
    }
    return redirectWithToast("/dashboard/tokens", { type: "success", title: m.revoked });
  }
  const submission = parseWithZod(formData, { schema: ApiTokenCreateSchema });
  if (submission.status !== "success") return data({ result: submission.reply(), created: null }, { status: 400 });
  try {
    const { token } = await createApiToken(actor, submission.value.userId, submission.value.name);
    // The page carries the token: no cache may keep it.
    return data({ result: submission.reply({ resetForm: true }), created: { token, name: submission.value.name } }, { headers: SECRET_PAGE_HEADERS });
  } catch (error) {
    const failed = dashboardFormFailure(submission, error, { log: "token create failed" });
    return data({ result: failed.result, created: null }, failed.init);
  }
}

type LoaderData = ReturnType<typeof useLoaderData<typeof loader>>;

function CreateTokenForm({ users }: { users: LoaderData["users"] }) {
  const actionData = useActionReply<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "api-token",
    lastResult: actionData?.result,
    constraint: getZodConstraint(ApiTokenCreateSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ApiTokenCreateSchema }),
  });
  const creating = navigation.state === "submitting" && navigation.formData?.get("intent") === "create";
  const { t } = useT();
  const serverMessage = useServerMessage();
  return (
    <section className="card" aria-labelledby="token-form-heading">
      <h2 id="token-form-heading">{t("tokensPage.newToken")}</h2>
      <p className="muted">{t("tokensPage.newTokenHint")}</p>
      <Form method="post" {...getFormProps(form)} className="form">
        <div className="dash-grid">
          <SelectField label={t("tokensPage.user")} selectProps={getSelectProps(fields.userId)} errors={fields.userId.errors}>
            <option value="">{t("tokensPage.chooseUser")}</option>
            {users.map((user) => (
              <option key={user.id} value={user.id}>
                {user.name} ({t(roleKeys[user.role])})
              </option>
            ))}
          </SelectField>
          <Field
            label={t("tokensPage.nameField")}
            inputProps={{ ...getInputProps(fields.name, { type: "text" }), placeholder: t("tokensPage.namePlaceholder"), autoComplete: "off", dir: "auto" }} errors={fields.name.errors} />
        </div>
        <div className="message-slot" id={form.errorId} aria-live="polite">
          {form.errors?.[0] ? <Message tone="error">{serverMessage(form.errors[0])}</Message> : null}
        </div>
        <ActionButton type="submit" name="intent" value="create" disabled={creating}>
          {creating ? t("tokensPage.creating") : t("tokensPage.create")}
        </ActionButton>
      </Form>
    </section>
  );
}

function CreatedToken({ created }: { created: { token: string; name: string } }) {
  const { t } = useT();
  const serverMessage = useServerMessage();
  return (
    <section className="card stack" aria-labelledby="created-token-title">
      <h2 id="created-token-title">{t("tokensPage.createdHeading", { name: created.name })}</h2>
      <Message tone="correct">{serverMessage(m.created)}</Message>
      <label className="field__label" htmlFor="created-token">
        {t("tokensPage.token")}
      </label>
      <input id="created-token" className="field__input secret-value" dir="ltr" readOnly value={created.token} onFocus={(event) => event.currentTarget.select()} />
      <p className="muted">
        {t("tokensPage.sendAs")} <code dir="ltr">Authorization: Bearer {created.token.slice(0, 9)}…</code>
        {t("tokensPage.seeThe")} <Link to="/docs/api">{t("tokensPage.apiGuide")}</Link>
        {t("tokensPage.end")}
      </p>
    </section>
  );
}

export default function ApiTokens() {
  const { tokens, users } = useLoaderData<typeof loader>();
  const actionData = useActionReply<typeof action>();
  const { t } = useT();
  const format = useFormats();
  return (
    <section aria-labelledby="tokens-title" className="stack dash-page">
      <h1 id="tokens-title">{t("tokensPage.heading")}</h1>
      {actionData?.created ? <CreatedToken created={actionData.created} /> : null}
      {/* A new form after each token (conform's reset leaves a select with nothing chosen). */}
      <CreateTokenForm key={actionData?.created?.token ?? "new"} users={users} />
      <section className="card" aria-labelledby="token-list-heading">
        <h2 id="token-list-heading">{t("tokensPage.listHeading")}</h2>
        {tokens.length === 0 ? (
          <p>{t("tokensPage.none")}</p>
        ) : (
          <SideScroll>
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">{t("tokensPage.name")}</th>
                  <th scope="col">{t("tokensPage.user")}</th>
                  <th scope="col">{t("tokensPage.token")}</th>
                  <th scope="col">{t("tokensPage.created")}</th>
                  <th scope="col">{t("tokensPage.lastUsed")}</th>
                  <th scope="col">{t("tokensPage.status")}</th>
                </tr>
              </thead>
              <tbody>
                {tokens.map((token) => (
                  <tr key={token.id} data-token-id={token.id}>
                    <td>
                      <bdi>{token.name}</bdi>
                    </td>
                    <td>
                      <bdi>{token.userName}</bdi> <span className="muted">({t(roleKeys[token.role])})</span>
                    </td>
                    <td>
                      <code dir="ltr">{token.prefix}…</code>
                    </td>
                    <td className="nowrap">{format.dayTime(token.createdAt)}</td>
                    <td className="nowrap">{token.lastUsedAt ? format.dayTime(token.lastUsedAt) : t("tokensPage.never")}</td>
                    <td>
                      {token.revokedAt ? (
                        <span className="muted">{t("tokensPage.revokedAt", { time: format.dayTime(token.revokedAt) })}</span>
                      ) : (
                        <Form method="post" onSubmit={confirmSubmit(t("tokensPage.revokeConfirm", { name: token.name }))}>
                          <input type="hidden" name="id" value={token.id} />
                          <button
                            type="submit"
                            name="intent"
                            value="revoke"
                            className="link-button link-button--danger"
                            aria-label={t("tokensPage.revokeLabel", { name: token.name })}
                          >
                            {t("tokensPage.revoke")}
                          </button>
                        </Form>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </SideScroll>
        )}
      </section>
    </section>
  );
}
