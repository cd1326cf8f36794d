import { Alert, Badge, Card, List, SimpleGrid, Stack, Table, Text, Title } from "../../utils/mantine";
import { useTranslation } from "react-i18next";
import type { ResourceDef } from "../../common/resources/types";
import { columnLabel } from "../../common/import/columns";
import { Pager } from "../Pager";
import type { ImportJobReport, ImportLineReport } from "../../common/import/types";

const OUTCOME_COLOURS = { created: "green", updated: "blue", rejected: "red" } as const;

function Reasons({ def, reasons }: { def: ResourceDef; reasons: ImportLineReport["reasons"] }) {
  const { t } = useTranslation();
  const entries = Object.entries(reasons);
  if (entries.length === 0) return null;
  return (
    <List size="sm" spacing={2}>
      {entries.map(([field, messages]) => (
        <List.Item key={field}>
          {field === "_row" ? null : <b>{columnLabel(t, def, field)}: </b>}
          {messages.join(" ")}
        </List.Item>
      ))}
    </List>
  );
}

/** A finished job: what it did, then each line of the file, rejected lines first. */
export function JobReport({
  def,
  job,
  lines,
  total,
  page,
  size,
}: {
  def: ResourceDef;
  job: ImportJobReport;
  lines: ImportLineReport[];
  total: number;
  page: number;
  size: number;
}) {
  const { t } = useTranslation();
  const done = job.status === "done";
  const counts = [
    ["total", job.total],
    ["created", job.created],
    ["updated", job.updated],
    ["rejected", job.rejected],
    ...(job.sync ? [["deleted", job.deleted] as const] : []),
  ] as const;
  return (
    <Stack data-testid="import-report">
      <Alert color={done ? (job.rejected ? "yellow" : "green") : "red"} title={t(done ? "transfer:import.doneTitle" : "transfer:import.failedTitle")}>
        {job.message}
      </Alert>
      <SimpleGrid cols={{ base: 2, sm: counts.length }}>
        {counts.map(([key, value]) => (
          <Card key={key} withBorder padding="sm" data-testid={`import-count-${key}`}>
            <Text size="sm" c="dimmed">
              {t(`transfer:import.counts.${key}`)}
            </Text>
            <Text size="xl" fw={700}>
              {value}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
      {total > 0 ? (
        <>
          <Title order={3} size="h5">
            {t("transfer:import.reportTitle")}
          </Title>
          <Table striped withTableBorder data-testid="import-lines">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t("transfer:import.line")}</Table.Th>
                <Table.Th>{t("transfer:import.status")}</Table.Th>
                <Table.Th>{t("transfer:import.record")}</Table.Th>
                <Table.Th>{t("transfer:import.reasons")}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {lines.map((line) => (
                <Table.Tr key={line.line} data-testid={`import-line-${line.line}`}>
                  <Table.Td>{line.line}</Table.Td>
                  <Table.Td>
                    <Badge color={OUTCOME_COLOURS[line.outcome]} variant="light">
                      {t(`transfer:import.outcome.${line.outcome}`)}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{line.record}</Table.Td>
                  <Table.Td>
                    <Reasons def={def} reasons={line.reasons} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {total > size ? <Pager page={page} size={size} total={total} /> : null}
        </>
      ) : null}
    </Stack>
  );
}
