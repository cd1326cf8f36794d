import { Alert, Card, Code, Table, Text } from "../utils/mantine";
import { type LoaderFunctionArgs, data } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { allows } from "../common/access";
import type { SlowRoute } from "../common/slow-route";
import { requireUser } from "../utils/auth.server";

// The firm's slowest API routes of the last hour (developer page, administrators).
export const handle = { titleKey: "pages.slow" };

export async function loader({ request }: LoaderFunctionArgs) {
  const { me, api } = await requireUser(request, "firmAccess");
  const allowed = allows(me.userRole.firmAccess, "write");
  const routes = allowed ? (await api.json<SlowRoute[]>("/api/v1/slow-calls")).data : [];
  return data({ allowed, routes });
}

export default function SlowRequests() {
  const { allowed, routes } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const ms = (value: number) => t("slow.ms", { value: value.toLocaleString("en-US", { maximumFractionDigits: 1 }) });
  if (!allowed) return <Alert color="yellow">{t("errors:slowAdminsOnly")}</Alert>;
  return (
    <Card withBorder>
      <Text size="sm" c="dimmed" mb="sm">
        {t("slow.intro")}
      </Text>
      {routes.length === 0 ? (
        <Text>{t("slow.empty")}</Text>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table striped highlightOnHover data-testid="slow-routes">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t("slow.route")}</Table.Th>
                <Table.Th ta="right">{t("slow.count")}</Table.Th>
                <Table.Th ta="right">{t("slow.p50")}</Table.Th>
                <Table.Th ta="right">{t("slow.p95")}</Table.Th>
                <Table.Th ta="right">{t("slow.max")}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {routes.map((r) => (
                <Table.Tr key={`${r.method} ${r.route}`}>
                  <Table.Td>
                    <Code>
                      {r.method} {r.route}
                    </Code>
                  </Table.Td>
                  <Table.Td ta="right">{r.count.toLocaleString("en-US")}</Table.Td>
                  <Table.Td ta="right">{ms(r.p50)}</Table.Td>
                  <Table.Td ta="right">{ms(r.p95)}</Table.Td>
                  <Table.Td ta="right">{ms(r.max)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Card>
  );
}
