import { Button, Text } from "../../utils/mantine";
import { Row } from "../Row";
import { Form, Link } from "@remix-run/react";
import { SpriteIcon } from "./SpriteIcon";
import { useTranslation } from "react-i18next";

/** Who is signed in, a link to the profile and sign out (a POST, so no link can sign anyone out). */
export function UserMenu({ user }: { user: { fullName: string; email: string } }) {
  const { t } = useTranslation();
  return (
    <Row gap="xs" wrap="nowrap">
      <Text component={Link} to="/profile" size="sm" visibleFrom="sm" title={user.email} data-testid="user-name">
        {user.fullName}
      </Text>
      <Form method="post" action="/logout">
        <Button type="submit" variant="subtle" size="sm" leftSection={<SpriteIcon name="logout" size={16} />}>
          {t("shell.signOut")}
        </Button>
      </Form>
    </Row>
  );
}
