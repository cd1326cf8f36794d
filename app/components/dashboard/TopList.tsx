import { Card, Text, Title } from "../../utils/mantine";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import type { Ranked } from "../../common/dashboard-answer";
import { CountTable } from "./CountTable";

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
        <CountTable
          labelledBy={titleId}
          headers={[t("top.rank"), t("top.name"), t("count")]}
          rows={rows.map((r, i) => ({ key: r.id, cells: [i + 1, r.name, r.count] }))}
        />
      )}
    </Card>
  );
}
