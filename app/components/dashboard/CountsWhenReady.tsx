import { Alert, Anchor, Group, Loader, Stack, Text } from "../../utils/mantine";
import { Await, useLocation } from "@remix-run/react";
import { Suspense, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { DashboardData } from "../../common/dashboard-answer";
import { useHydrated } from "../../utils/use-hydrated";
import { DashboardCounts, type ShownPeriod } from "./DashboardCounts";

/** The counts for a period, or the words for why they could not be had. */
export type Counted = { dashboard: DashboardData; shown: ShownPeriod } | { failure: string };

interface Props {
  counts: Promise<Counted>;
  firmName: string;
}

/**
 * The counts the page asked for while it drew itself. The server waits for them (the document goes
 * out whole). The browser hydrates around the server's markup and keeps it until the promise has
 * settled: a boundary that suspends while hydrating would be drawn again by React at the first
 * update that reaches it. After a client navigation it says it is counting until they come.
 */
export function CountsWhenReady({ counts, firmName }: Props) {
  const hydrated = useHydrated();
  // The counts whose markup the server sent, when this mount hydrates it.
  const [drawnByServer] = useState(() => (hydrated ? null : counts));
  const [settled, setSettled] = useState<{ counts: Promise<Counted>; answer: Counted } | null>(null);
  useEffect(() => {
    let current = true;
    void counts.then((answer) => current && setSettled({ counts, answer }));
    return () => {
      current = false;
    };
  }, [counts]);

  if (typeof document === "undefined")
    return (
      <div className="dashboard-counts">
        <Suspense fallback={<Counting />}>
          <Await resolve={counts}>{(answer) => <CountsBody answer={answer} firmName={firmName} />}</Await>
        </Suspense>
      </div>
    );
  // React leaves inner HTML alone when it hydrates, so the server's counts stay on screen.
  if (settled?.counts !== counts && counts === drawnByServer)
    return <div key="drawn" className="dashboard-counts" suppressHydrationWarning dangerouslySetInnerHTML={{ __html: "" }} />;
  return (
    <div key="live" className="dashboard-counts">
      {settled?.counts === counts ? <CountsBody answer={settled.answer} firmName={firmName} /> : <Counting />}
    </div>
  );
}

function CountsBody({ answer, firmName }: { answer: Counted; firmName: string }) {
  return "failure" in answer ? (
    <CountsFailed failure={answer.failure} />
  ) : (
    <DashboardCounts dashboard={answer.dashboard} shown={answer.shown} firmName={firmName} />
  );
}

function Counting() {
  const { t } = useTranslation("dashboard");
  return (
    <Group gap="xs" data-testid="dashboard-counting">
      <Loader size="sm" />
      <Text size="sm">{t("counting")}</Text>
    </Group>
  );
}

function CountsFailed({ failure }: { failure: string }) {
  const { t } = useTranslation();
  const location = useLocation();
  return (
    <Stack gap="xs" maw={560}>
      <Alert color="red" role="alert" data-testid="page-error">
        {t(failure)}
      </Alert>
      <Anchor href={location.pathname + location.search} data-testid="try-again">
        {t("tryAgain")}
      </Anchor>
    </Stack>
  );
}
