import { Anchor, Card, Group, Stack, Text, Title } from "../../utils/mantine";
import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { ResourceDef } from "../../common/resources/types";
import { FormatHelp } from "./FormatHelp";
import { ImportForm } from "./ImportForm";
import type { ImportActionData, ImportView } from "./import.server";
import { JobProgress } from "./JobProgress";
import { JobReport } from "./JobReport";

/** The import page: the form and the file format, or a job's progress and then its report. */
export function ImportPage({ def, view, posted, size }: { def: ResourceDef; view: ImportView; posted: ImportActionData | undefined; size: number }) {
  const { t } = useTranslation();
  const { job } = view;
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2} size="h3">
          {t("transfer:import.heading", { resource: def.key })}
        </Title>
        <Group gap="md">
          {job && job.status !== "running" ? (
            <Anchor component={Link} to={`/${def.key}/import`} size="sm">
              {t("transfer:import.another")}
            </Anchor>
          ) : null}
          <Anchor component={Link} to={`/${def.key}`} size="sm">
            {t("transfer:import.back", { resource: def.key })}
          </Anchor>
        </Group>
      </Group>
      {job ? (
        <Card withBorder>
          {job.status === "running" ? (
            <JobProgress job={job} />
          ) : (
            <JobReport def={def} job={job} lines={view.lines} total={view.total} page={view.page} size={size} />
          )}
        </Card>
      ) : (
        <>
          <Text>{t("transfer:import.intro")}</Text>
          <Card withBorder>
            <ImportForm def={def} posted={posted} />
          </Card>
          <Card withBorder>
            <Stack gap="sm">
              <FormatHelp def={def} />
            </Stack>
          </Card>
        </>
      )}
    </Stack>
  );
}
