import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { useT } from "~/components/i18n";
import { LanguageSwitch } from "~/components/layout/language-switch";
import { FullScreenToggle } from "~/components/layout/top-nav";
import { Scene } from "~/components/ui/scene";
import { TitleBar } from "~/components/ui/title-bar";

/**
 * The frame of the pages a visitor reaches about their password (/forgot-password, /set-password): the
 * login page's card, its back arrow (to /login) and its corner tools.
 */
export function AccountCard({ title, hint, children }: { title: string; hint?: ReactNode; children: ReactNode }) {
  const { t } = useT();
  return (
    <Scene statue="left">
      <main className="login" aria-labelledby="account-title">
        <Link to="/login" className="back-arrow" aria-label={t("account.backToLogin")}>
          <svg viewBox="0 0 24 24" width="28" height="28" aria-hidden="true">
            <path d="M15 5l-7 7 7 7" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" />
          </svg>
        </Link>
        <div className="corner-tools">
          <LanguageSwitch />
          <FullScreenToggle />
        </div>
        <section className="card login__card">
          <div id="account-title">
            <TitleBar title={title} />
          </div>
          {hint ? <p className="login__hint">{hint}</p> : null}
          {children}
        </section>
      </main>
    </Scene>
  );
}
