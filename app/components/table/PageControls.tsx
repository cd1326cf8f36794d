import { Anchor, Group, Text } from "@mantine/core";
import { Link, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PAGE_SIZES } from "../../utils/paging";
import { changeState, tableHref } from "../../utils/table-url";
import { Pager } from "../Pager";
import type { TableData } from "./types";

/** Previous/next and the page-size links 10/25/50/100, all real links. */
export function PageControls({ table }: { table: TableData }) {
  const { t } = useTranslation();
  const location = useLocation();
  const current = new URLSearchParams(location.search);
  return (
    <Group justify="space-between" data-testid="page-controls">
      <Group gap="xs" role="group" aria-label={t("table:perPage")}>
        <Text size="sm" c="dimmed">
          {t("table:perPage")}
        </Text>
        {PAGE_SIZES.map((size) =>
          size === table.state.size ? (
            <Text key={size} size="sm" fw={700} aria-current="true">
              {size}
            </Text>
          ) : (
            <Anchor
              key={size}
              component={Link}
              size="sm"
              preventScrollReset
              to={tableHref(location.pathname, changeState(table.state, { size }), table.spec, current)}
            >
              {size}
            </Anchor>
          ),
        )}
      </Group>
      <Pager page={table.state.page} size={table.state.size} total={table.total} />
    </Group>
  );
}
