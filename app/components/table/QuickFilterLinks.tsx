import { Row } from "../Row";
import { useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { findResource } from "../../common/resources";
import { changeState, quickFiltersOf, tableHref } from "../../utils/table-url";
import type { TableFrame } from "./types";
import { PlainButtonLink } from "../PlainButtonLink";

/** All / Recent / Not Mapped as links, where the entity gives them a meaning; none when only All is left. */
export function QuickFilterLinks({ table }: { table: TableFrame }) {
  const { t } = useTranslation();
  const location = useLocation();
  const notMapped = findResource(table.resourceKey)?.quickFilters.notMapped;
  const current = new URLSearchParams(location.search);
  const offered = quickFiltersOf(table.spec);
  if (offered.length < 2) return null;
  return (
    <Row gap="xs" role="group" aria-label={t("table:quick.label")} data-testid="quick-filters">
      {offered.map((quick) => {
        const active = table.state.quick === quick;
        return (
          <PlainButtonLink
            key={quick}
            to={tableHref(location.pathname, changeState(table.state, { quick }), table.spec, current)}
            preventScrollReset
            size="xs"
            variant={active ? undefined : "default"}
            aria-current={active ? "true" : undefined}
            title={quick === "notMapped" && notMapped ? t(notMapped.labelKey) : undefined}
          >
            {t(`table:quick.${quick}`)}
          </PlainButtonLink>
        );
      })}
    </Row>
  );
}
