import { Button, Group } from "../../utils/mantine";
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { INBOX_BULK_ACTIONS } from "../../common/inbox-bulk";

/** The bulk actions (retry, archive, process manually): each a POST of the item's action. */
export function ItemActions({ ids, redirectTo }: { ids: string[]; redirectTo?: string }) {
  const { t } = useTranslation("inbox");
  return (
    <Group gap="xs">
      {INBOX_BULK_ACTIONS.map((action) => (
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
