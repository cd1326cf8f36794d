import { Alert, Anchor, Button, Group, Text } from "../../utils/mantine";
import { Form, Link, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { useHydrated } from "../../utils/use-hydrated";
import { INTENT_FIELD } from "../../utils/wizard-state";

/**
 * Delete in two POSTs, so it works without JavaScript and never in one click: the first asks,
 * the second (intent confirm-delete) deletes.
 */
export function DeleteRecord({ confirming, title, action }: { confirming: boolean; title: string; action: string }) {
  const { t } = useTranslation();
  const busy = useNavigation().state !== "idle";
  const hydrated = useHydrated();
  if (!confirming) {
    return (
      <Form method="post" action={action} data-hydrated={hydrated || undefined}>
        <Button type="submit" name={INTENT_FIELD} value="delete" color="red" variant="light">
          {t("wizard:delete")}
        </Button>
      </Form>
    );
  }
  return (
    <Alert color="red" title={t("wizard:deleteTitle")} data-testid="confirm-delete">
      <Text size="sm" mb="sm">
        {t("wizard:deleteQuestion", { title })}
      </Text>
      <Form method="post" action={action}>
        <Group>
          <Button type="submit" name={INTENT_FIELD} value="confirm-delete" color="red" loading={busy}>
            {t("wizard:confirmDelete")}
          </Button>
          <Anchor component={Link} to={action} size="sm">
            {t("wizard:cancel")}
          </Anchor>
        </Group>
      </Form>
    </Alert>
  );
}
