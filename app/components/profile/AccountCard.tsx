import { Card, Text, Title } from "../../utils/mantine";
import { useTranslation } from "react-i18next";

interface Account {
  email: string;
  fullName: string;
  displayName: string;
  roleName: string;
}

/** Who is signed in: address, names and role. */
export function AccountCard({ me }: { me: Account }) {
  const { t } = useTranslation();
  const rows: [string, string][] = [
    ["profile.email", me.email],
    ["profile.fullName", me.fullName],
    ["profile.displayName", me.displayName],
    ["profile.role", me.roleName],
  ];
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">
        {t("profile.account")}
      </Title>
      {rows.map(([label, value]) => (
        <Text size="sm" key={label}>
          <b>{t(label)}:</b> {value}
        </Text>
      ))}
    </Card>
  );
}
