import { useT } from "~/components/i18n";
import { useEffect, useState } from "react";
import { useSocketStatus } from "./socket-provider";

/**
 * A small "Live" / "Reconnecting…" pill for pages that update themselves. Renders nothing on the
 * server and before the first connection, so a page without JavaScript does not promise live data.
 */
export function LiveIndicator({ className }: { className?: string }) {
  const status = useSocketStatus();
  const [connectedOnce, setConnectedOnce] = useState(false);
  useEffect(() => {
    if (status === "connected") setConnectedOnce(true);
  }, [status]);

  const { t } = useT();
  if (!connectedOnce && status !== "connected") return null;
  const live = status === "connected";
  return (
    <span className={["live-indicator", live ? "live-indicator--on" : "live-indicator--off", className].filter(Boolean).join(" ")}>
      <span className="live-indicator__dot" aria-hidden="true" />
      {live ? t("live.on") : t("live.reconnecting")}
    </span>
  );
}
