import { NativeSelect, Select } from "../../utils/mantine";
import { useHydrated } from "../../utils/use-hydrated";

/** From this many options on a select is searched rather than scrolled. */
export const SEARCH_FROM = 30;

interface Props {
  id: string;
  name: string;
  label: string;
  error?: string;
  withAsterisk: boolean;
  defaultValue?: string;
  data: { value: string; label: string }[];
}

/**
 * A select with a long list (time zones: over 400): a plain select as the server draws it, which
 * works without JavaScript; once the page is interactive, the same field as a box to type in that
 * narrows the list as the user types. Both post the chosen value under the field's name.
 */
export function LongSelect({ id, name, label, error, withAsterisk, defaultValue, data }: Props) {
  const hydrated = useHydrated();
  if (!hydrated || data.length < SEARCH_FROM) {
    return <NativeSelect id={id} name={name} label={label} error={error} withAsterisk={withAsterisk} defaultValue={defaultValue} data={data} />;
  }
  return (
    <Select
      id={id}
      name={name}
      label={label}
      error={error}
      withAsterisk={withAsterisk}
      defaultValue={defaultValue || null}
      data={data}
      searchable
      allowDeselect={false}
      maxDropdownHeight={280}
      data-searchable-select
    />
  );
}
