import { Progress, Stack, Text, Title } from "../../utils/mantine";
import { useTranslation } from "react-i18next";
import { useHydrated } from "../../utils/use-hydrated";
import type { ImportJobReport } from "../../common/import/types";

/**
 * A running job. With JavaScript the page polls for progress; without it the page reloads
 * itself every two seconds (the refresh is only rendered before hydration, inside noscript).
 */
export function JobProgress({ job }: { job: ImportJobReport }) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const percent = job.total ? Math.round((job.processed / job.total) * 100) : 0;
  const label = t("transfer:import.progress", { processed: job.processed, total: job.total });
  return (
    <Stack gap="xs" data-testid="import-progress">
      {hydrated ? null : (
        <noscript>
          <meta httpEquiv="refresh" content="2" />
        </noscript>
      )}
      <Title order={3} size="h5">
        {t("transfer:import.progressTitle")}
      </Title>
      <Progress value={percent} size="lg" animated aria-label={label} />
      <Text size="sm">{label}</Text>
    </Stack>
  );
}
