import { useFetcher } from "@remix-run/react";
import { useEffect, useRef } from "react";

/**
 * While a judge holds a submission (N judges a submission), its claim is renewed each minute as long as the
 * tab is in view and the judge did something in the last CLAIM_MINUTES; otherwise it lapses and another
 * judge may be handed it. Without JavaScript the claim lasts CLAIM_MINUTES from the page's load.
 */
export function useClaimRenewal(submissionId: number | null, claimMinutes: number | null): boolean {
  const { submit, data: renewal } = useFetcher<{ renewed: boolean }>();
  const lastActive = useRef(Date.now());
  useEffect(() => {
    if (submissionId === null || claimMinutes === null) return;
    const active = () => (lastActive.current = Date.now());
    const events = ["keydown", "pointerdown", "scroll"] as const;
    for (const name of events) window.addEventListener(name, active, { passive: true });
    const timer = setInterval(() => {
      if (document.visibilityState !== "visible" || Date.now() - lastActive.current > claimMinutes * 60_000) return;
      submit({ intent: "renew", submissionId: String(submissionId) }, { method: "post" });
    }, 60_000);
    return () => {
      clearInterval(timer);
      for (const name of events) window.removeEventListener(name, active);
    };
  }, [submissionId, claimMinutes, submit]);
  // The server says the judge no longer holds it (it lapsed while they were away, or they opened it elsewhere).
  return renewal?.renewed === false;
}
