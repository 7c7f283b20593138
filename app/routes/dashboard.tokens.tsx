import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { formatDayTime } from "~/components/realtime/format";
import { ActionButton } from "~/components/ui/action-button";
import { Field, SelectField } from "~/components/ui/field";
import { Message } from "~/components/ui/message";
import { ApiTokenCreateSchema, ApiTokenRevokeSchema } from "~/modules/api-tokens/schema";
import { createApiToken, listApiTokens, revokeApiToken } from "~/modules/api-tokens/tokens.server";
import { messages } from "~/modules/messages";
import { roleLabels } from "~/modules/users/schema";
import { listUsers } from "~/modules/users/users.server";
import styles from "~/styles/dashboard.css";
import { requirePageActor } from "~/glue/actor.server";
import { requirePage } from "~/glue/auth.server";
import { dashboardFormFailure, dashboardToastFailure } from "~/glue/failures.server";
import { redirectWithToast } from "~/glue/toast.server";
import { confirmSubmit } from "~/components/ui/confirm-submit";

const m = messages.apiTokens;

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];
export const meta: MetaFunction = () => [{ title: "API tokens · Gatekeeper Dashboard" }];

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
    return data({ result: submission.reply({ resetForm: true }), created: { token, name: submission.value.name } }, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    const failed = dashboardFormFailure(submission, error, { log: "token create failed" });
    return data({ result: failed.result, created: null }, failed.init);
  }
}

type LoaderData = ReturnType<typeof useLoaderData<typeof loader>>;

function CreateTokenForm({ users }: { users: LoaderData["users"] }) {
  const actionData = useActionData<typeof action>();
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
  return (
    <section className="card" aria-labelledby="token-form-heading">
      <h2 id="token-form-heading">New token</h2>
      <p className="muted">A token acts as its user, with that user&apos;s role: a judge&apos;s token can score, a participant&apos;s can submit for their team.</p>
      <Form method="post" {...getFormProps(form)} className="form">
        <div className="dash-grid">
          <SelectField label="User" selectProps={getSelectProps(fields.userId)} errors={fields.userId.errors}>
            <option value="">Choose a user</option>
            {users.map((user) => (
              <option key={user.id} value={user.id}>
                {user.name} ({roleLabels[user.role]})
              </option>
            ))}
          </SelectField>
          <Field label="Name (what it is for)" inputProps={{ ...getInputProps(fields.name, { type: "text" }), placeholder: "Big screen scoreboard", autoComplete: "off" }} errors={fields.name.errors} />
        </div>
        <div className="message-slot" id={form.errorId} aria-live="polite">
          {form.errors?.[0] ? <Message tone="error">{form.errors[0]}</Message> : null}
        </div>
        <ActionButton type="submit" name="intent" value="create" disabled={creating}>
          {creating ? "Creating..." : "Create token"}
        </ActionButton>
      </Form>
    </section>
  );
}

function CreatedToken({ created }: { created: { token: string; name: string } }) {
  return (
    <section className="card stack" aria-labelledby="created-token-title">
      <h2 id="created-token-title">Token &quot;{created.name}&quot;</h2>
      <Message tone="correct">{m.created}</Message>
      <label className="field__label" htmlFor="created-token">
        Token
      </label>
      <input id="created-token" className="field__input secret-value" readOnly value={created.token} onFocus={(event) => event.currentTarget.select()} />
      <p className="muted">
        Send it as <code>Authorization: Bearer {created.token.slice(0, 9)}…</code>. See the <Link to="/docs/api">API guide</Link>.
      </p>
    </section>
  );
}

export default function ApiTokens() {
  const { tokens, users } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <section aria-labelledby="tokens-title" className="stack dash-page">
      <h1 id="tokens-title">API tokens</h1>
      {actionData?.created ? <CreatedToken created={actionData.created} /> : null}
      {/* A new form after each token (conform's reset leaves a select with nothing chosen). */}
      <CreateTokenForm key={actionData?.created?.token ?? "new"} users={users} />
      <section className="card" aria-labelledby="token-list-heading">
        <h2 id="token-list-heading">Tokens</h2>
        {tokens.length === 0 ? (
          <p>No tokens yet.</p>
        ) : (
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">User</th>
                  <th scope="col">Token</th>
                  <th scope="col">Created</th>
                  <th scope="col">Last used</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {tokens.map((token) => (
                  <tr key={token.id} data-token-id={token.id}>
                    <td dir="auto">{token.name}</td>
                    <td dir="auto">
                      {token.userName} <span className="muted">({roleLabels[token.role]})</span>
                    </td>
                    <td>
                      <code>{token.prefix}…</code>
                    </td>
                    <td className="nowrap">{formatDayTime(token.createdAt)}</td>
                    <td className="nowrap">{token.lastUsedAt ? formatDayTime(token.lastUsedAt) : "never"}</td>
                    <td>
                      {token.revokedAt ? (
                        <span className="muted">revoked {formatDayTime(token.revokedAt)}</span>
                      ) : (
                        <Form method="post" onSubmit={confirmSubmit(`Revoke ${token.name}? Scripts using it stop working at once.`)}>
                          <input type="hidden" name="id" value={token.id} />
                          <button type="submit" name="intent" value="revoke" className="link-button link-button--danger" aria-label={`Revoke ${token.name}`}>
                            revoke
                          </button>
                        </Form>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </section>
  );
}
