import { Card, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { type LoaderFunctionArgs, data } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { requireUser } from "../utils/auth.server";
import { useRootData } from "../utils/root-data";

export const handle = { titleKey: "pages.dashboard" };

interface Summary {
  users: number;
  security_roles: number;
  outbound_mail: number;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const { me, api, headers } = await requireUser(request, "dashboardAccess");
  const { data: summary } = await api.json<Summary>("/api/v1/dashboard/summary");
  return data({ me, summary }, { headers });
}

export default function Dashboard() {
  const { me, summary } = useLoaderData<typeof loader>();
  const root = useRootData();
  const { t } = useTranslation();
  const cards = [
    { label: t("dashboard.users"), value: summary.users, id: "users" },
    { label: t("dashboard.securityRoles"), value: summary.security_roles, id: "roles" },
    { label: t("dashboard.outboundMail"), value: summary.outbound_mail, id: "mail" },
  ];
  return (
    <Stack>
      <Title order={2} size="h3">
        {t("dashboard.welcome", { name: me.displayName || me.fullName })}
      </Title>
      <Text c="dimmed">{t("dashboard.firmSummary", { firm: root?.branding?.name ?? "" })}</Text>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        {cards.map((c) => (
          <Card key={c.id} withBorder data-testid={`count-${c.id}`}>
            <Text size="sm" c="dimmed">
              {c.label}
            </Text>
            <Text size="xl" fw={700}>
              {c.value}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
