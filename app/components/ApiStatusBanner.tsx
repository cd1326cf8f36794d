import { Alert } from "../utils/mantine-document";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";

/** How often an open page asks whether the ECFX service answers. */
export const API_PING_INTERVAL_MS = 30_000;

/**
 * With JavaScript, the page pings the API (its ping route with the user's token, through
 * /resources/ping) every half minute while it is visible, and at once when the tab comes back or
 * the network does; while the service does not answer, a banner says so. An ended session is an
 * answer: the next page says that itself. Without JavaScript a page that cannot load says it
 * itself (503).
 */
export function ApiStatusBanner() {
  const { t } = useTranslation();
  const [down, setDown] = useState(false);

  useEffect(() => {
    let stopped = false;
    const ping = async () => {
      if (document.visibilityState === "hidden") return;
      try {
        const response = await fetch("/resources/ping", { cache: "no-store", headers: { accept: "application/json" } });
        if (!stopped) setDown(response.status >= 500);
      } catch {
        if (!stopped) setDown(true);
      }
    };
    const timer = setInterval(() => void ping(), API_PING_INTERVAL_MS);
    const now = () => void ping();
    document.addEventListener("visibilitychange", now);
    window.addEventListener("online", now);
    return () => {
      stopped = true;
      clearInterval(timer);
      document.removeEventListener("visibilitychange", now);
      window.removeEventListener("online", now);
    };
  }, []);

  if (!down) return null;
  return (
    <Alert color="red" variant="filled" radius={0} role="alert" className="api-status-banner" data-testid="api-down">
      {t("apiDown")}
    </Alert>
  );
}
