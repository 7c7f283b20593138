import { withCode } from "~/components/ui/with-code";
import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Fragment } from "react";
import { Trans } from "react-i18next";
import { useT } from "~/components/i18n";
import { pageTitle } from "~/modules/i18n/i18n";
import { catalogueWithTexts, roleTexts, tagTexts } from "~/modules/api/operation-texts";
import { API_BASE } from "~/modules/api/operations";
import styles from "~/styles/dashboard.css";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "apiDocs.title") }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

const ERROR_SHAPE = '{ "code", "message", "fieldErrors"? }';

/**
 * Public route: the API's guide, rendered from the same catalogue as /api/v1/openapi.json. The catalogue's
 * texts are English (the OpenAPI document's); the page shows them in the screen's language through
 * operation-texts.ts's keys (decision 025).
 */
export async function loader() {
  return {
    calls: catalogueWithTexts().map(({ method, path, operation, texts }) => ({
      method: method.toUpperCase(),
      path: `${API_BASE}${path}`,
      summaryKey: texts.summary,
      descriptionKey: texts.description ?? null,
      access: operation.access,
      ownTeamOnly: operation.ownTeamOnly ?? false,
      originalCalls: operation.originalCalls,
      tag: operation.tag,
    })),
  };
}

// The catalogue's descriptions are OpenAPI Markdown: their `code` spans show as code, left to right (withCode).

export default function ApiDocs() {
  const { calls } = useLoaderData<typeof loader>();
  const tags = [...new Set(calls.map((call) => call.tag))];
  const { t } = useT();
  const whoMay = (call: (typeof calls)[number]) => {
    if (call.access === "public") return t("apiDocs.who.anyone");
    const roles = call.access.length === 3 ? t("apiDocs.who.signedIn") : call.access.map((role) => t(roleTexts[role])).join(t("apiDocs.who.separator"));
    return call.ownTeamOnly ? t("apiDocs.who.ownTeam", { who: roles }) : roles;
  };
  return (
    <main className="stack dash-page api-docs">
      <h1>{t("apiDocs.heading")}</h1>
      <p>
        <Trans
          i18nKey="apiDocs.intro"
          values={{ base: API_BASE }}
          components={{ code: <code dir="ltr" />, document: <a href={`${API_BASE}/openapi.json`} />, name: <bdi dir="ltr" /> }}
        />
      </p>
      <section className="card stack" aria-labelledby="api-authentication">
        <h2 id="api-authentication">{t("apiDocs.authentication")}</h2>
        <p>
          <Trans i18nKey="apiDocs.tokens" components={{ code: <code dir="ltr" />, tokens: <a href="/dashboard/tokens" /> }} />
        </p>
        <p>
          <Trans i18nKey="apiDocs.errors" values={{ shape: ERROR_SHAPE }} components={{ code: <code dir="ltr" /> }} />
        </p>
      </section>
      {tags.map((tag) => (
        <section key={tag} className="card" aria-labelledby={`api-${tag}`}>
          <h2 id={`api-${tag}`}>{tagTexts[tag] ? t(tagTexts[tag]) : tag}</h2>
          {/* Scrolls sideways on a narrow screen: focusable, so a keyboard can scroll it. */}
          <div className="table-wrap" tabIndex={0}>
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">{t("apiDocs.columns.call")}</th>
                  <th scope="col">{t("apiDocs.columns.does")}</th>
                  <th scope="col">{t("apiDocs.columns.who")}</th>
                  <th scope="col">{t("apiDocs.columns.original")}</th>
                </tr>
              </thead>
              <tbody>
                {calls
                  .filter((call) => call.tag === tag)
                  .map((call) => (
                    <tr key={`${call.method} ${call.path}`}>
                      <td className="nowrap">
                        <code dir="ltr">
                          {call.method} {call.path}
                        </code>
                      </td>
                      <td>
                        {t(call.summaryKey)}
                        {call.descriptionKey ? <p className="muted">{withCode(t(call.descriptionKey))}</p> : null}
                      </td>
                      <td>{whoMay(call)}</td>
                      <td>
                        {call.originalCalls.length ? (
                          // The space between two calls outside their code, so each stays whole and left to right.
                          call.originalCalls.map((spec) => (
                            <Fragment key={spec}>
                              <code dir="ltr">{spec}</code>{" "}
                            </Fragment>
                          ))
                        ) : (
                          <span className="muted">{t("apiDocs.new")}</span>
                        )}
                      </td>
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
