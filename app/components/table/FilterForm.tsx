import { Form, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { useFocusClass } from "../../utils/focus-class";
import { FILTER_PREFIX, changeState, rangeInputName, tableHref, tableSearchParams } from "../../utils/table-url";
import { filterChoices } from "./format";
import { HiddenInputs } from "./HiddenInputs";
import type { ArrangedColumn } from "./layout";
import { PlainButton, PlainField, PlainInput, PlainSelect } from "./PlainFields";
import type { TableData } from "./types";

function rangeValues(table: TableData, field: string): { from: string; to: string } {
  const partial = table.partialRanges[field];
  if (partial) return partial;
  const [from = "", to = ""] = (table.state.filters[field] ?? "").split("..");
  return { from, to };
}

/** One column's filter input: text, a choice of the entity's options or rows, or two dates. */
function FilterInput({ table, column }: { table: TableData; column: ArrangedColumn }) {
  const { t } = useTranslation();
  const label = t(column.labelKey);
  const name = `${FILTER_PREFIX}${column.field}`;
  const value = table.state.filters[column.field] ?? "";
  const error = table.errors[column.field] ? t(table.errors[column.field]!) : undefined;
  if (column.filter === "dateRange") {
    const { from, to } = rangeValues(table, column.field);
    return (
      <fieldset className="plain-fieldset" data-filter={column.field}>
        <legend className="plain-legend">{label}</legend>
        <div className="plain-range">
          {(["from", "to"] as const).map((end) => (
            <PlainField key={end} label={t(`table:${end}`)} size="xs">
              {(id) => (
                <PlainInput id={id} type="date" name={rangeInputName(column.field, end)} defaultValue={end === "from" ? from : to} invalid={Boolean(error)} />
              )}
            </PlainField>
          ))}
        </div>
        {error ? (
          <p className="plain-error" role="alert">
            {error}
          </p>
        ) : null}
      </fieldset>
    );
  }
  const choices = filterChoices(t, table.resourceKey, column, table.referenceOptions);
  if (choices) {
    // A value the list does not hold (several ids, a row past the first choices) stays selectable.
    const options = [{ value: "", label: t("table:any") }, ...choices, ...(value && !choices.some((c) => c.value === value) ? [{ value, label: value }] : [])];
    return (
      <PlainField label={label} size="xs">
        {(id) => <PlainSelect id={id} name={name} options={options} defaultValue={value} data-filter={column.field} />}
      </PlainField>
    );
  }
  const typedId = column.filter === "reference";
  return (
    <PlainField label={typedId ? `${label} (${t("table:referenceId")})` : label} size="xs">
      {(id) => <PlainInput id={id} name={name} defaultValue={value} maxLength={200} data-filter={column.field} />}
    </PlainField>
  );
}

/**
 * The GET form of search and column filters: the table's state goes to the URL, with or without
 * JavaScript. Drawn only until the page is interactive (the interactive table has its own
 * filters), so its fields are plain ones (PlainFields.tsx).
 */
export function FilterForm({ table }: { table: TableData }) {
  const { t } = useTranslation();
  const location = useLocation();
  const focus = useFocusClass();
  const { state, spec } = table;
  const filterColumns = table.columns.filter((c) => c.filter && (c.visible || state.filters[c.field] || table.errors[c.field]));
  const active = Object.keys(state.filters).length > 0 || Object.keys(table.errors).length > 0;
  // Sort, page size and quick filter ride along; a new search starts on page 1.
  const keep = tableSearchParams(state, spec);
  const cleared = tableHref(location.pathname, changeState(state, { q: "", filters: {} }), spec);
  return (
    <Form method="get" role="search" key={location.search} data-testid="table-filters">
      <HiddenInputs params={keep} omit={(key) => key === "q" || key === "page" || key.startsWith(FILTER_PREFIX)} />
      <div className="plain-form-row">
        <PlainField label={t("table:search")} className="plain-search">
          {(id) => <PlainInput id={id} type="search" name="q" placeholder={t("table:searchPlaceholder")} defaultValue={state.q} maxLength={200} />}
        </PlainField>
        <PlainButton type="submit">{t("table:applyFilters")}</PlainButton>
        {state.q || active ? (
          <a className={`plain-link plain-clear ${focus}`} href={cleared}>
            {t("table:clearFilters")}
          </a>
        ) : null}
      </div>
      {filterColumns.length > 0 ? (
        <details className="plain-details" open={active || undefined}>
          <summary className="plain-summary">{t("table:filters")}</summary>
          <div className="plain-filter-grid">
            {filterColumns.map((c) => (
              <FilterInput key={c.field} table={table} column={c} />
            ))}
          </div>
        </details>
      ) : null}
    </Form>
  );
}
