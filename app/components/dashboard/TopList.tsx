import { Card, Table, Text, Title } from "@mantine/core";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import type { Ranked } from "../../common/dashboard-answer";

/** One of the top-ten lists: the data itself is the table. */
export function TopList({ testId, title, rows }: { testId: string; title: string; rows: Ranked[] }) {
  const { t } = useTranslation("dashboard");
  const titleId = useId();
  return (
    <Card withBorder component="section" data-testid={testId} aria-labelledby={titleId}>
      <Title order={3} size="h5" id={titleId} mb="xs">
        {title}
      </Title>
      {rows.length === 0 ? (
        <Text size="sm">{t("top.none")}</Text>
      ) : (
        <Table striped aria-labelledby={titleId}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t("top.rank")}</Table.Th>
              <Table.Th scope="col">{t("top.name")}</Table.Th>
              <Table.Th scope="col">{t("count")}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r, i) => (
              <Table.Tr key={r.id}>
                <Table.Td>{i + 1}</Table.Td>
                <Table.Td>{r.name}</Table.Td>
                <Table.Td>{r.count}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Card>
  );
}
