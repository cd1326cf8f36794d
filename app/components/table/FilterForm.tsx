import { Anchor, Box, Button, Fieldset, Group, NativeSelect, SimpleGrid, Text, TextInput } from "@mantine/core";
import { Form, Link, useLocation } from "@remix-run/react";
import { IconSearch } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { FILTER_PREFIX, changeState, rangeInputName, tableHref, tableSearchParams } from "../../utils/table-url";
import { filterChoices } from "./format";
import { HiddenInputs } from "./HiddenInputs";
import type { ArrangedColumn } from "./layout";
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
      <Fieldset legend={label} variant="unstyled" data-filter={column.field}>
        <Group gap="xs" grow wrap="nowrap">
          <TextInput type="date" size="xs" name={rangeInputName(column.field, "from")} label={t("table:from")} defaultValue={from} error={Boolean(error)} />
          <TextInput type="date" size="xs" name={rangeInputName(column.field, "to")} label={t("table:to")} defaultValue={to} error={Boolean(error)} />
        </Group>
        {error ? (
          <Text size="xs" c="red" role="alert" mt={4}>
            {error}
          </Text>
        ) : null}
      </Fieldset>
    );
  }
  const choices = filterChoices(t, table.resourceKey, column, table.referenceOptions);
  if (choices) {
    // A value the list does not hold (several ids, a row past the first choices) stays selectable.
    const data = [{ value: "", label: t("table:any") }, ...choices, ...(value && !choices.some((c) => c.value === value) ? [{ value, label: value }] : [])];
    return <NativeSelect size="xs" name={name} label={label} data={data} defaultValue={value} data-filter={column.field} />;
  }
  const typedId = column.filter === "reference";
  return (
    <TextInput
      size="xs"
      name={name}
      label={typedId ? `${label} (${t("table:referenceId")})` : label}
      defaultValue={value}
      maxLength={200}
      data-filter={column.field}
    />
  );
}

/** The GET form of search and column filters: the table's state goes to the URL, with or without JavaScript. */
export function FilterForm({ table }: { table: TableData }) {
  const { t } = useTranslation();
  const location = useLocation();
  const { state, spec } = table;
  const filterColumns = table.columns.filter((c) => c.filter && (c.visible || state.filters[c.field] || table.errors[c.field]));
  const active = Object.keys(state.filters).length > 0 || Object.keys(table.errors).length > 0;
  // Sort, page size and quick filter ride along; a new search starts on page 1.
  const keep = tableSearchParams(state, spec);
  const cleared = tableHref(location.pathname, changeState(state, { q: "", filters: {} }), spec);
  return (
    <Form method="get" role="search" key={location.search} data-testid="table-filters">
      <HiddenInputs params={keep} omit={(key) => key === "q" || key === "page" || key.startsWith(FILTER_PREFIX)} />
      <Group align="flex-end" gap="sm">
        <TextInput
          type="search"
          name="q"
          label={t("table:search")}
          placeholder={t("table:searchPlaceholder")}
          defaultValue={state.q}
          maxLength={200}
          leftSection={<IconSearch size={16} aria-hidden />}
          w={320}
        />
        <Button type="submit">{t("table:applyFilters")}</Button>
        {state.q || active ? (
          <Anchor component={Link} to={cleared} size="sm">
            {t("table:clearFilters")}
          </Anchor>
        ) : null}
      </Group>
      {filterColumns.length > 0 ? (
        <Box component="details" open={active || undefined} mt="sm">
          <Box component="summary" style={{ cursor: "pointer" }}>
            <Text span size="sm" fw={600}>
              {t("table:filters")}
            </Text>
          </Box>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} mt="xs">
            {filterColumns.map((c) => (
              <FilterInput key={c.field} table={table} column={c} />
            ))}
          </SimpleGrid>
        </Box>
      ) : null}
    </Form>
  );
}
