import type { OptionsFilter } from "@mantine/core";
import { Button, Group, Input, MultiSelect, NativeSelect, Select, Stack, Text, TextInput } from "../../utils/mantine";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useHydrated } from "../../utils/use-hydrated";
import { narrowIntent } from "../../utils/wizard-state";
import { FALLBACK_OPTIONS, type PickerData, TYPEAHEAD_OPTIONS } from "./reference-sources";
import { useOptionSearch } from "./use-option-search";

export interface ReferencePickerProps {
  id: string;
  name: string;
  label: string;
  error?: string;
  withAsterisk?: boolean;
  /** Registry key of the entries to pick from. */
  reference: string;
  multiple: boolean;
  initial: string[];
  /** The first options, rendered on the server. */
  data: PickerData;
}

/**
 * Picks one or several entries of another entity. With JavaScript it searches as you type;
 * without, it is a native select of the first options and a search button that narrows them.
 */
export function ReferencePicker(props: ReferencePickerProps) {
  return useHydrated() ? <SearchPicker {...props} /> : <ListPicker {...props} />;
}

function PickerNotes({ data, limit }: { data: PickerData; limit: number }) {
  const { t } = useTranslation();
  if (data.failed)
    return (
      <Text size="xs" c="red">
        {t("errors:loadingFailed")}
      </Text>
    );
  if (data.total <= limit) return null;
  return (
    <Text size="xs" c="dimmed" data-testid="picker-too-many">
      {t("errors:tooManyResults")}
    </Text>
  );
}

function ListPicker({ id, name, label, error, withAsterisk, multiple, initial, data }: ReferencePickerProps) {
  const { t } = useTranslation();
  const options = data.options.map((o) => ({ value: o.value, label: o.label }));
  return (
    <Stack gap={4}>
      {multiple ? (
        <Input.Wrapper id={id} label={label} error={error} withAsterisk={withAsterisk} description={t("wizard:picker.multipleHint")}>
          <select id={id} name={name} multiple size={Math.min(8, Math.max(3, options.length))} defaultValue={initial} style={{ width: "100%", padding: 4 }}>
            {options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </Input.Wrapper>
      ) : (
        <NativeSelect
          id={id}
          name={name}
          label={label}
          error={error}
          withAsterisk={withAsterisk}
          defaultValue={initial[0] ?? ""}
          data={[{ value: "", label: t("wizard:picker.none") }, ...options]}
        />
      )}
      <Group gap="xs" wrap="nowrap" align="flex-end">
        <TextInput
          name={`pick.${name}`}
          size="xs"
          defaultValue={data.query}
          aria-label={t("wizard:picker.searchLabel", { field: label })}
          placeholder={t("wizard:picker.searchPlaceholder")}
        />
        <Button type="submit" name="intent" value={narrowIntent(name)} formNoValidate size="xs" variant="default">
          {t("wizard:picker.search")}
        </Button>
      </Group>
      <PickerNotes data={data} limit={FALLBACK_OPTIONS} />
    </Stack>
  );
}

// The server already matched the words; the list shows what it answered.
const keepAll: OptionsFilter = ({ options }) => options;

function SearchPicker({ id, name, label, error, withAsterisk, reference, multiple, initial, data }: ReferencePickerProps) {
  const { t } = useTranslation();
  const { answer: found, search: load } = useOptionSearch(reference);
  const [values, setValues] = useState<string[]>(initial);
  const [search, setSearch] = useState("");
  // Labels of every option seen, so a chosen entry keeps its name whatever the list shows now.
  const [known, setKnown] = useState(() => new Map(data.options.map((o) => [o.value, o.label])));

  const answer = found && search.trim() !== "" && found.query === search.trim() ? found : null;
  const listed = answer ? answer.options : data.options;
  const chosen = values.filter((v) => !listed.some((o) => o.value === v)).map((v) => ({ value: v, label: known.get(v) ?? v }));
  const options = [...chosen, ...listed];

  const remember = (picked: string[]) => {
    const next = new Map(known);
    for (const v of picked) {
      const option = listed.find((o) => o.value === v);
      if (option) next.set(v, option.label);
    }
    setKnown(next);
  };
  const onSearch = (q: string) => {
    setSearch(q);
    // Picking an option writes its label into the search box; that is not a new search.
    const isChosenLabel = !multiple && values[0] !== undefined && known.get(values[0]) === q;
    if (q.trim() !== "" && !isChosenLabel) load(q.trim());
  };

  const common = {
    id,
    label,
    error,
    withAsterisk,
    data: options,
    searchable: true,
    searchValue: search,
    onSearchChange: onSearch,
    filter: keepAll,
    nothingFoundMessage: t("wizard:picker.nothingFound"),
    placeholder: t("wizard:picker.placeholder"),
    "data-picker": "search",
  } as const;

  return (
    <Stack gap={4}>
      {multiple ? (
        <MultiSelect
          {...common}
          value={values}
          onChange={(next) => {
            remember(next);
            setValues(next);
          }}
        />
      ) : (
        <Select
          {...common}
          value={values[0] ?? null}
          clearable
          onChange={(next) => {
            const picked = next ? [next] : [];
            remember(picked);
            setValues(picked);
          }}
        />
      )}
      {values.map((v) => (
        <input key={v} type="hidden" name={name} value={v} />
      ))}
      <PickerNotes data={answer ?? data} limit={answer ? TYPEAHEAD_OPTIONS : FALLBACK_OPTIONS} />
    </Stack>
  );
}
