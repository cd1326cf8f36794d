import { Button, Group } from "@mantine/core";
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";

/** Retry, archive, process manually: each a POST of the item's bulk action. */
export function ItemActions({ ids, redirectTo }: { ids: string[]; redirectTo?: string }) {
  const { t } = useTranslation("inbox");
  return (
    <Group gap="xs">
      {(["retry", "archive", "manual"] as const).map((action) => (
        <Form method="post" key={action}>
          <input type="hidden" name="intent" value={action} />
          {ids.map((id) => (
            <input type="hidden" name="id" value={id} key={id} />
          ))}
          {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
          <Button type="submit" variant="default" size="xs">
            {t(`bulk.${action}`)}
          </Button>
        </Form>
      ))}
    </Group>
  );
}
