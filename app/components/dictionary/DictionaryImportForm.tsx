import { Alert, Button, Group, Input, List } from "../../utils/mantine";
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { useHydrated } from "../../utils/use-hydrated";

/** The upload of an edited export: a native file input, so it works without JavaScript. */
export function DictionaryImportForm({ errors }: { errors?: string[] }) {
  const { t } = useTranslation();
  // Tells browser tests that the form has been taken over (clicks during hydration are lost).
  const hydrated = useHydrated();
  return (
    <Form method="post" action="/dictionary/import" encType="multipart/form-data" data-hydrated={hydrated || undefined}>
      {errors?.length ? (
        <Alert color="red" title={t("dictionary.importRefused")} role="alert" mb="sm" data-testid="dictionary-import-errors">
          <List size="sm">
            {errors.map((e) => (
              <List.Item key={e}>{e}</List.Item>
            ))}
          </List>
        </Alert>
      ) : null}
      <Group align="end" gap="sm">
        <Input.Wrapper id="dictionary-file" label={t("dictionary.importFile")} description={t("dictionary.importHint")} maw={560}>
          <input id="dictionary-file" name="file" type="file" accept=".csv,.txt,text/csv,text/plain" style={{ display: "block", marginTop: 4 }} />
        </Input.Wrapper>
        <Button type="submit" variant="default">
          {t("dictionary.importSend")}
        </Button>
      </Group>
    </Form>
  );
}
