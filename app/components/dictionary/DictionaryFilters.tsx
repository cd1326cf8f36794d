import { Button, Group, NativeSelect, TextInput } from "../../utils/mantine";
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { useHydrated } from "../../utils/use-hydrated";
import { type DictionaryFilter, SHOW_CHOICES } from "./dictionary-url";

const SHOW_LABEL = { all: "dictionary.showAll", overridden: "dictionary.showOverridden", default: "dictionary.showDefault" } as const;

/** Search, area and "changed" filter: a GET form, so the state is the URL and no JavaScript is needed. */
export function DictionaryFilters({ filter, namespaces }: { filter: DictionaryFilter; namespaces: string[] }) {
  const { t } = useTranslation();
  // Tells browser tests that the form has been taken over (clicks during hydration are lost).
  const hydrated = useHydrated();
  return (
    <Form method="get" role="search" data-hydrated={hydrated || undefined}>
      <Group align="end" gap="sm">
        <TextInput name="q" type="search" label={t("dictionary.search")} defaultValue={filter.q} w={280} />
        <NativeSelect
          name="namespace"
          label={t("dictionary.namespace")}
          defaultValue={filter.namespace}
          data={[{ value: "", label: t("dictionary.allNamespaces") }, ...namespaces.map((n) => ({ value: n, label: n }))]}
        />
        <NativeSelect
          name="show"
          label={t("dictionary.show")}
          defaultValue={filter.show}
          data={SHOW_CHOICES.map((s) => ({ value: s, label: t(SHOW_LABEL[s]) }))}
        />
        <Button type="submit">{t("dictionary.apply")}</Button>
      </Group>
    </Form>
  );
}
