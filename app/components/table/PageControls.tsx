import { Row } from "../Row";
import { useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { useFocusClass } from "../../utils/focus-class";
import { PAGE_SIZES } from "../../utils/paging";
import { changeState, neighbourState, tableHref } from "../../utils/table-url";
import { Pager } from "../Pager";
import type { TableFrame } from "./types";

/**
 * Previous/next and the page-size links 10/25/50/100, all real links. Drawn only until the page
 * is interactive, so the size links are plain ones (app.css).
 */
export function PageControls({ table }: { table: TableFrame }) {
  const { t } = useTranslation();
  const location = useLocation();
  const focus = useFocusClass();
  const current = new URLSearchParams(location.search);
  return (
    <Row justify="space-between" data-testid="page-controls">
      <div className="page-sizes" role="group" aria-label={t("table:perPage")}>
        <span className="page-sizes-label">{t("table:perPage")}</span>
        {PAGE_SIZES.map((size) =>
          size === table.state.size ? (
            <span key={size} className="page-size-current" aria-current="true">
              {size}
            </span>
          ) : (
            <a key={size} className={`plain-link ${focus}`} href={tableHref(location.pathname, changeState(table.state, { size }), table.spec, current)}>
              {size}
            </a>
          ),
        )}
      </div>
      <Pager
        page={table.state.page}
        size={table.state.size}
        total={table.total}
        neighbours={{
          previous: tableHref(location.pathname, neighbourState(table.state, table.cursors, -1), table.spec, current),
          next: tableHref(location.pathname, neighbourState(table.state, table.cursors, 1), table.spec, current),
        }}
      />
    </Row>
  );
}
