import { Button, Group } from "@mantine/core";
import { Link } from "@remix-run/react";
import { IconPlus } from "@tabler/icons-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { resourceSingularKey } from "../../common/resources/types";
import { ColumnsForm } from "./ColumnsForm";
import { ExportForm } from "./ExportForm";
import { StripedSwitch } from "./StripedSwitch";
import type { TableFrame } from "./types";

/**
 * Above the table: "New" (roles with full access to an entity that has a wizard), any actions the
 * page adds (import, ...), striping for firm administrators, columns without JavaScript, export.
 */
export function TableToolbar({ table, actions, interactive }: { table: TableFrame; actions?: ReactNode; interactive: boolean }) {
  const { t } = useTranslation();
  return (
    <Group justify="space-between" align="flex-start" data-testid="table-toolbar">
      <Group gap="xs">
        {table.canCreate ? (
          <Button component={Link} to={`/${table.resourceKey}/new`} leftSection={<IconPlus size={16} aria-hidden />}>
            {t("table:new", { item: t(resourceSingularKey(table.resourceKey)) })}
          </Button>
        ) : null}
        {actions}
      </Group>
      <Group gap="lg" align="flex-start">
        {table.canStripe ? <StripedSwitch saved={table.striped} /> : null}
        {interactive ? null : <ColumnsForm table={table} />}
        <ExportForm table={table} />
      </Group>
    </Group>
  );
}
