import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useT } from "~/components/i18n";
import { API_BASE, apiOperations } from "~/modules/api/operations";
import styles from "~/styles/dashboard.css";

export const meta: MetaFunction = () => [{ title: "API · Gatekeeper" }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

/** Public route: the API's guide, rendered from the same catalogue as /api/v1/openapi.json. */
export async function loader() {
  return {
    calls: Object.entries(apiOperations).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({
        method: method.toUpperCase(),
        path: `${API_BASE}${path}`,
        summary: operation.summary,
        description: operation.description ?? null,
        who:
          operation.access === "public"
            ? "anyone"
            : `${operation.access.length === 3 ? "signed in" : operation.access.join(", ")}${operation.ownTeamOnly ? " (participants: own team)" : ""}`,
        originalCalls: operation.originalCalls,
        tag: operation.tag,
      })),
    ),
  };
}

/** The catalogue's descriptions are OpenAPI Markdown: show its `code` spans as code. */
function withCode(text: string) {
  return text.split("`").map((part, index) => (index % 2 ? <code key={index}>{part}</code> : part));
}

export default function ApiDocs() {
  const { calls } = useLoaderData<typeof loader>();
  const tags = [...new Set(calls.map((call) => call.tag))];
  const { t, language } = useT();
  // A developer reference, in English only (decision 025): marked so, left to right, with a word in the page's language.
  return (
    <main className="stack dash-page api-docs" lang="en" dir="ltr">
      {language === "en" ? null : (
        <p lang={language} dir="rtl">
          {t("apiDocs.englishOnly")}
        </p>
      )}
      <h1>Gatekeeper API</h1>
      <p>
        The platform&apos;s calls as JSON under <code>{API_BASE}</code>, with the screens&apos; rules and role checks. Machine-readable:{" "}
        <a href={`${API_BASE}/openapi.json`}>OpenAPI 3.1 document</a>.
      </p>
      <section className="card stack" aria-labelledby="api-authentication">
        <h2 id="api-authentication">Authentication</h2>
        <p>
          An admin creates a personal token at <a href="/dashboard/tokens">Dashboard → API tokens</a> for the user it acts as; it carries that
          user&apos;s role and is shown once. Send <code>Authorization: Bearer gk_…</code>. From this site&apos;s own pages the session cookie
          works too; changes made with it must carry this site&apos;s <code>Origin</code>.
        </p>
        <p>
          Errors are <code>{'{ "code", "message", "fieldErrors"? }'}</code> with the matching status: 400 invalid input, 401 not signed in, 403
          not allowed, 404 not found, 409 duplicate or in use, 413 too large, 429 too many failed logins, 503 the database or file storage
          briefly unreachable (try again).
        </p>
      </section>
      {tags.map((tag) => (
        <section key={tag} className="card" aria-labelledby={`api-${tag}`}>
          <h2 id={`api-${tag}`}>{tag}</h2>
          {/* Scrolls sideways on a narrow screen: focusable, so a keyboard can scroll it. */}
          <div className="table-wrap" tabIndex={0}>
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Call</th>
                  <th scope="col">What it does</th>
                  <th scope="col">Who</th>
                  <th scope="col">Original call</th>
                </tr>
              </thead>
              <tbody>
                {calls
                  .filter((call) => call.tag === tag)
                  .map((call) => (
                    <tr key={`${call.method} ${call.path}`}>
                      <td className="nowrap">
                        <code>
                          {call.method} {call.path}
                        </code>
                      </td>
                      <td>
                        {call.summary}
                        {call.description ? <p className="muted">{withCode(call.description)}</p> : null}
                      </td>
                      <td>{call.who}</td>
                      <td>{call.originalCalls.length ? call.originalCalls.map((spec) => <code key={spec}>{spec} </code>) : <span className="muted">new</span>}</td>
                    </tr>
                  ))}
              </tbody>
            </table>
          </div>
        </section>
      ))}
    </main>
  );
}
