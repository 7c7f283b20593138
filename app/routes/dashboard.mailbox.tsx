import type { HeadersFunction, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import type { DashboardHandle } from "~/components/dashboard/error-boundary";
import { useT } from "~/components/i18n";
import { useFormats } from "~/components/realtime/format";
import { pageTitle } from "~/modules/i18n/i18n";
import { readMailboxPage } from "~/modules/mail/mailbox-page.server";
import { messages } from "~/modules/messages";
import styles from "~/styles/dashboard.css";
import { requirePage } from "~/glue/auth.server";
import { secretPageHeaders } from "~/glue/secret-pages.server";
import { Folded, SideScroll } from "~/components/ui/side-scroll";

export const handle: DashboardHandle = { loadFailed: messages.dashboard.loadFailed };
export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];
export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "mailboxPage.title") }];
/** The mails hold live links: no cache keeps the page. */
export const headers: HeadersFunction = secretPageHeaders;

/** Dashboard → Mailbox (admins): what the project's own SMTP server received (docs/domain.md "Mail"). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requirePage(request);
  return readMailboxPage(new URL(request.url).searchParams.get("mail"));
}

export default function Mailbox() {
  const { state, host, mails, selected } = useLoaderData<typeof loader>();
  const { t } = useT();
  const formats = useFormats();
  return (
    <section aria-labelledby="mailbox-title" className="stack dash-page">
      <h1 id="mailbox-title">{t("mailboxPage.title")}</h1>
      {state === "off" ? <p className="card">{t("mailboxPage.off")}</p> : null}
      {state === "elsewhere" ? (
        <p className="card">
          {t("mailboxPage.elsewhere")} <bdi dir="ltr">{host}</bdi>
        </p>
      ) : null}
      {state === "kept" ? <p className="muted">{t("mailboxPage.intro")}</p> : null}
      {selected ? (
        <article className="card stack" aria-labelledby="mailbox-mail-title">
          <h2 id="mailbox-mail-title">
            <bdi>{selected.subject}</bdi>
          </h2>
          <dl className="dash-detail">
            <dt>{t("mailboxPage.from")}</dt>
            <dd>
              <bdi dir="ltr">{selected.from}</bdi>
            </dd>
            <dt>{t("mailboxPage.to")}</dt>
            <dd>
              <bdi dir="ltr">{selected.to}</bdi>
            </dd>
            <dt>{t("mailboxPage.received")}</dt>
            <dd>{formats.dayTime(selected.receivedAt)}</dd>
          </dl>
          <pre className="mailbox__text" dir="auto">
            {selected.text}
          </pre>
          {selected.links.length ? (
            <section aria-labelledby="mailbox-links-title">
              <h3 id="mailbox-links-title">{t("mailboxPage.links")}</h3>
              <ul>
                {selected.links.map((link) => (
                  <li key={link}>
                    {/* Opened in a new tab: no Referer, and this page stays. */}
                    <a href={link} target="_blank" rel="noreferrer noopener" dir="ltr" className="mailbox__link">
                      {link}
                    </a>
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          <p>
            <Link to="/dashboard/mailbox">{t("common.close")}</Link>
          </p>
        </article>
      ) : null}
      {state === "kept" ? (
        <section className="card" aria-labelledby="mailbox-list-title">
          <h2 id="mailbox-list-title">{t("mailboxPage.listTitle")}</h2>
          {mails.length === 0 ? (
            <p className="muted">{t("mailboxPage.empty")}</p>
          ) : (
            <SideScroll>
              <table className="table">
                <thead>
                  <tr>
                    <th scope="col">{t("mailboxPage.received")}</th>
                    <th scope="col" data-priority="3">{t("mailboxPage.to")}</th>
                    <th scope="col">{t("mailboxPage.subject")}</th>
                  </tr>
                </thead>
                <tbody>
                  {mails.map((mail) => (
                    <tr key={mail.id} data-mail-id={mail.id}>
                      <td className="nowrap">
                        {formats.dayTime(mail.receivedAt)}
                        <Folded lines={[{ label: t("mailboxPage.to"), value: <bdi dir="ltr" className="cut" title={mail.to}>{mail.to}</bdi>, priority: 3 }]} />
                      </td>
                      <td data-priority="3">
                        <bdi dir="ltr" className="cut" title={mail.to}>
                          {mail.to}
                        </bdi>
                      </td>
                      <td>
                        <Link to={`?mail=${mail.id}`}>
                          <bdi>{mail.subject}</bdi>
                        </Link>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </SideScroll>
          )}
        </section>
      ) : null}
    </section>
  );
}
