import type { MetaFunction } from "@remix-run/node";
import { useNavigate } from "@remix-run/react";
import { useEffect, useRef, useState, type MouseEvent } from "react";
import { TopNav } from "~/components/layout/top-nav";
import { ActionLink } from "~/components/ui/action-button";
import { Scene } from "~/components/ui/scene";
import { TitleBar } from "~/components/ui/title-bar";
import { useOptionalUser } from "~/root";

import { useT } from "~/components/i18n";
import { pageTitle } from "~/modules/i18n/i18n";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "meta.intro") }];

/** Reveal after 500 ms, leave for /login 800 ms after the press. */
const REVEAL_DELAY_MS = 500;
const LEAVE_DELAY_MS = 800;


/** Waiting, revealed after 500 ms, leaving after the button press. */
type Phase = "waiting" | "revealed" | "leaving";

function prefersReducedMotion() {
  return window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
}

/** Let the browser handle new-tab / new-window clicks itself. */
function isPlainLeftClick(event: MouseEvent) {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}

// Public route, no loader: the intro screen.
export default function Intro() {
  const navigate = useNavigate();
  const user = useOptionalUser();
  const [phase, setPhase] = useState<Phase>("waiting");
  const leaveTimer = useRef<number | undefined>(undefined);
  const { t } = useT();

  useEffect(() => {
    // The content's fade-and-rise runs from CSS alone (so it shows without JavaScript);
    // the statue's slide is driven from here through Scene's prop.
    if (prefersReducedMotion()) {
      setPhase("revealed");
      return;
    }
    const timer = window.setTimeout(() => setPhase((current) => (current === "waiting" ? "revealed" : current)), REVEAL_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, []);

  useEffect(() => () => window.clearTimeout(leaveTimer.current), []);

  function handleEnter(event: MouseEvent<HTMLAnchorElement>) {
    if (event.defaultPrevented || !isPlainLeftClick(event)) return;
    event.preventDefault();
    if (phase === "leaving") return;
    if (prefersReducedMotion()) {
      navigate("/login");
      return;
    }
    setPhase("leaving");
    leaveTimer.current = window.setTimeout(() => navigate("/login"), LEAVE_DELAY_MS);
  }

  return (
    <Scene statue={phase === "waiting" ? "center" : "right"} className="intro-scene">
      {/* Without JavaScript nothing would move the statue: put it where it ends up. */}
      <noscript>
        <style dangerouslySetInnerHTML={{ __html: ".intro-scene .scene__statue{left:95%}" }} />
      </noscript>
      <TopNav user={user} />
      <main className="intro" aria-labelledby="intro-title" data-phase={phase}>
        <section className={phase === "leaving" ? "card intro__content intro__content--leaving" : "card intro__content"}>
          <TitleBar id="intro-title" title={t("intro.title")} warning />
          {/* The original platform's intro, word for word in English. */}
          <p className="intro__text">{t("intro.text")}</p>
          <ActionLink to="/login" prefetch="intent" className="intro__button" onClick={handleEnter}>
            {t("intro.enter")}
          </ActionLink>
        </section>
      </main>
    </Scene>
  );
}
