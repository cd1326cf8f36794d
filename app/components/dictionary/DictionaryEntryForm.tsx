import { Alert, Anchor, Button, Card, Code, Group, Stack, Text, Textarea } from "../../utils/mantine";
import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { useHydrated } from "../../utils/use-hydrated";
import { DICTIONARY_MAX_LENGTH, type DictionaryRow, placeholdersOf } from "../../common/dictionary";
import { useFormatMoment } from "../../utils/dates";

/** One entry: its default, and a form to give it the firm's words or take them back. */
export function DictionaryEntryForm({ entry, canEdit, posted }: { entry: DictionaryRow; canEdit: boolean; posted?: { value: string; errors: string[] } }) {
  const { t } = useTranslation();
  // Tells browser tests that the form has been taken over (clicks during hydration are lost).
  const hydrated = useHydrated();
  const moment = useFormatMoment();
  const placeholders = placeholdersOf(entry.defaultText);
  const error = posted?.errors.join(" ");
  return (
    <Stack maw={900}>
      <Anchor component={Link} to="/dictionary" size="sm">
        {t("dictionary.back")}
      </Anchor>
      <Card withBorder>
        <Stack gap="xs">
          <Text size="sm">
            <Code>
              {entry.namespace}:{entry.key}
            </Code>
          </Text>
          <Text size="sm" fw={600}>
            {t("dictionary.columns.defaultText")}
          </Text>
          <Text data-testid="dictionary-default">{entry.defaultText}</Text>
          {entry.overridden && entry.updatedBy && entry.updatedAt ? (
            <Text size="sm" c="dimmed">
              {t("dictionary.lastChange", { user: entry.updatedBy, at: moment(entry.updatedAt) })}
            </Text>
          ) : null}
        </Stack>
      </Card>
      {canEdit ? (
        <Form method="post" data-hydrated={hydrated || undefined}>
          <Stack gap="sm">
            <Textarea
              name="value"
              label={t("dictionary.text")}
              description={placeholders.length ? t("dictionary.textHint", { placeholders: placeholders.join(", ") }) : t("dictionary.textHintNone")}
              defaultValue={posted?.value ?? entry.text}
              error={error}
              errorProps={{ role: "alert" }}
              maxLength={DICTIONARY_MAX_LENGTH}
              autosize
              minRows={2}
              required
            />
            <Group>
              <Button type="submit" name="intent" value="save">
                {t("dictionary.save")}
              </Button>
              {entry.overridden ? (
                <Button type="submit" name="intent" value="reset" variant="default" formNoValidate>
                  {t("dictionary.reset")}
                </Button>
              ) : null}
            </Group>
          </Stack>
        </Form>
      ) : (
        <Alert color="gray">{t("dictionary.readOnly")}</Alert>
      )}
    </Stack>
  );
}
