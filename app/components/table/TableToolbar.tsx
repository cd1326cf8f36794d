import { Row } from "../Row";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { resourceSingularKey } from "../../common/resources/types";
import { ColumnsForm } from "./ColumnsForm";
import { ExportForm } from "./ExportForm";
import { StripedSwitch } from "./StripedSwitch";
import type { TableFrame } from "./types";
import { PlainButtonLink } from "../PlainButtonLink";
import { SpriteIcon } from "../shell/SpriteIcon";

/**
 * Above the table: "New" (roles with full access to an entity that has a wizard), any actions the
 * page adds (import, ...), striping for firm administrators, columns without JavaScript, export.
 */
export function TableToolbar({ table, actions, interactive }: { table: TableFrame; actions?: ReactNode; interactive: boolean }) {
  const { t } = useTranslation();
  return (
    <Row justify="space-between" align="flex-start" data-testid="table-toolbar">
      <Row gap="xs">
        {table.canCreate ? (
          <PlainButtonLink to={`/${table.resourceKey}/new`}>
            <SpriteIcon name="plus" size={16} />
            {t("table:new", { item: t(resourceSingularKey(table.resourceKey)) })}
          </PlainButtonLink>
        ) : null}
        {actions}
      </Row>
      <Row gap="lg" align="flex-start">
        {table.canStripe ? <StripedSwitch saved={table.striped} /> : null}
        {interactive ? null : <ColumnsForm table={table} />}
        <ExportForm table={table} />
      </Row>
    </Row>
  );
}
