import { Alert, Anchor, Badge, Card, Group, Stack, Table, Text, Title } from "../utils/mantine";
import { type LoaderFunctionArgs, data } from "@remix-run/node";
import { Link, Outlet, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Pager } from "../components/Pager";
import { allows } from "../common/access";
import { timedOutCalls } from "../utils/api.server";
import { requireUser } from "../utils/auth.server";
import { useFormatMoment } from "../utils/dates";
import { pageFromUrl } from "../utils/paging";

export const handle = { titleKey: "pages.dev" };

interface MailSummary {
  id: string;
  purpose: string;
  to_addresses: string[];
  subject: string;
  transport: string;
  status: string;
  created_at: number;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const { me, api } = await requireUser(request, "firmAccess");
  const page = pageFromUrl(new URL(request.url), 25);
  const canRead = allows(me.userRole.firmAccess, "write");
  let mails: MailSummary[] = [];
  let total = 0;
  if (canRead) {
    const result = await api.json<MailSummary[]>(`/api/v1/outbox/search?max=${page.size}&offset=${page.offset}`);
    mails = result.data;
    total = Number(result.response.headers.get("x-total-count") ?? mails.length);
  }
  return data({ canRead, mails, total, page, timeouts: [...timedOutCalls()] });
}

export default function Developer() {
  const { canRead, mails, total, page, timeouts } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const formatDate = useFormatMoment();
  return (
    <Stack>
      <Card withBorder>
        <Title order={2} size="h4" mb="xs">
          {t("dev.outbox")}
        </Title>
        {!canRead ? (
          <Alert color="yellow">{t("errors:outboxAdminsOnly")}</Alert>
        ) : (
          <>
            <Text size="sm" c="dimmed" mb="sm">
              {mails.some((m) => m.transport === "relay") ? t("dev.relayIntro") : t("dev.outboxIntro")}
            </Text>
            {mails.length === 0 ? (
              <Text>{t("dev.empty")}</Text>
            ) : (
              <Table striped highlightOnHover data-testid="outbox">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t("dev.sentAt")}</Table.Th>
                    <Table.Th>{t("dev.to")}</Table.Th>
                    <Table.Th>{t("dev.subject")}</Table.Th>
                    <Table.Th>{t("dev.purpose")}</Table.Th>
                    <Table.Th>{t("dev.status")}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {mails.map((m) => (
                    <Table.Tr key={m.id}>
                      <Table.Td>{formatDate(m.created_at, "second")}</Table.Td>
                      <Table.Td>{m.to_addresses.join(", ")}</Table.Td>
                      <Table.Td>
                        <Anchor component={Link} to={`/dev/mail/${m.id}`}>
                          {m.subject}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>{m.purpose}</Table.Td>
                      <Table.Td>
                        <Badge variant="light">{m.status}</Badge>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
            <Group justify="flex-end" mt="sm">
              <Pager page={page.page} size={page.size} total={total} />
            </Group>
          </>
        )}
      </Card>
      <Outlet />
      <Card withBorder>
        <Title order={2} size="h5" mb="xs">
          {t("dev.timedOutCalls")}
        </Title>
        {timeouts.length === 0 ? (
          <Text size="sm">{t("dev.noTimeouts")}</Text>
        ) : (
          timeouts.map((c) => (
            <Text size="sm" key={`${c.at}${c.path}`}>
              {formatDate(c.at, "second")} {c.path}
            </Text>
          ))
        )}
      </Card>
    </Stack>
  );
}
