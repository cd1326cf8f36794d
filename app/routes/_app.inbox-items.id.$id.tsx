import { Alert, Anchor, Badge, Code, Grid, Group, Stack, Table, Text, Title } from "@mantine/core";
import { type ActionFunctionArgs, type LoaderFunctionArgs, data } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { CardSection } from "../components/inbox/CardSection";
import { CardTable, OpenLink } from "../components/inbox/CardTable";
import { CasePicker } from "../components/inbox/CasePicker";
import { ItemActions } from "../components/inbox/ItemActions";
import { ParsedNotice } from "../components/inbox/ParsedNotice";
import { allows } from "../shared/access";
import { requireUser } from "../utils/auth.server";
import { runInboxIntent } from "../utils/inbox-actions.server";
import { loadInboxCard, loadRawMessage } from "../utils/inbox.server";
import { originalEmail } from "../utils/original-email.server";
import { sandboxedHtml } from "../utils/sandboxed-html";
import { redirectWithToast } from "../utils/toast.server";
import { readForm } from "../utils/request-body.server";

export const handle = { titleKey: "pages.inboxItems" };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { me, api, headers } = await requireUser(request, "inboxItemAccess");
  const id = params.id ?? "";
  const card = await loadInboxCard(api, id);
  const raw = await loadRawMessage(api, id);
  const email = raw ? await originalEmail(raw) : null;
  const caseQuery = new URL(request.url).searchParams.get("caseQuery")?.trim() ?? "";
  let caseOptions: { id: string; label: string }[] = [];
  if (caseQuery && allows(me.userRole.caseAccess, "read")) {
    const { data: rows } = await api.json<{ id: string; name: string; case_number: string }[]>(
      `/api/v1/case/search?max=20&freeText=${encodeURIComponent(caseQuery)}`,
    );
    caseOptions = rows.map((r) => ({ id: r.id, label: `${r.case_number} — ${r.name}` }));
  }
  const canChange = allows(me.userRole.inboxItemAccess, "write");
  return data({ card, email, caseQuery, caseOptions, canChange }, { headers });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { api } = await requireUser(request, "inboxItemAccess");
  const form = await readForm(request);
  form.set("item", params.id ?? "");
  if (!form.getAll("id").length) form.append("id", params.id ?? "");
  const toast = await runInboxIntent(api, form);
  return redirectWithToast(request, `/inbox-items/id/${params.id}`, toast);
}

const when = (ms: number) => new Date(ms).toISOString().replace("T", " ").slice(0, 19);

export default function InboxCardPage() {
  const { card, email, caseQuery, caseOptions, canChange } = useLoaderData<typeof loader>();
  const { t } = useTranslation("inbox");
  const { t: tr } = useTranslation("resources");
  const { item } = card;
  const needsCase = !card.case && item.disposition !== "Split" && item.parsed?.kind === "notice";
  return (
    <Stack>
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Title order={2} size="h4" data-testid="card-subject">
            {item.subject || item.id}
          </Title>
          <Text size="sm" c="dimmed">
            {t("card.received", { date: when(item.created_at), source: tr(`inbox-items.options.source.${item.source}`) })}
            {item.sender ? ` · ${t("card.from")} ${item.sender}` : ""}
          </Text>
          <Group gap="xs">
            <Badge data-testid="card-status">{tr(`inbox-items.options.status.${item.status}`)}</Badge>
            <Badge variant="light">{tr(`inbox-items.options.disposition.${item.disposition}`)}</Badge>
            {item.action_required !== "NONE" ? <Badge color="orange">{tr(`inbox-items.options.action_required.${item.action_required}`)}</Badge> : null}
          </Group>
        </Stack>
        {canChange ? <ItemActions ids={[item.id]} /> : null}
      </Group>
      {item.reason ? (
        <Alert color="orange" title={t("card.reason")} data-testid="card-reason">
          {item.reason}
        </Alert>
      ) : null}
      {item.disposition_text ? <Text size="sm">{item.disposition_text}</Text> : null}
      <Grid>
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack>
            <CardSection title={t("card.parsed")} testId="card-parsed">
              <ParsedNotice parsed={item.parsed} />
            </CardSection>
            <CardSection title={t("card.case")}>
              {card.case ? (
                <Anchor component={Link} to={`/cases/${card.case.id}`} data-testid="card-case">
                  {card.case.case_number} — {card.case.name}
                </Anchor>
              ) : (
                <Text size="sm">{t("card.noCase")}</Text>
              )}
              {needsCase && canChange ? (
                <Stack mt="sm" gap="xs">
                  <Text size="sm" fw={600}>
                    {t("card.pickCase")}
                  </Text>
                  <CasePicker query={caseQuery} options={caseOptions} />
                </Stack>
              ) : null}
            </CardSection>
            <CardSection title={t("card.documents")} testId="card-documents">
              <CardTable
                rows={card.documents}
                empty={t("card.noDocuments")}
                cells={(d) => [
                  d.name,
                  `${t(`fetchStatus.${d.fetch_status}`)}${d.sealed ? ` · ${t("card.sealed")}` : ""}${d.fetch_error ? ` · ${d.fetch_error}` : ""}`,
                  d.stored ? <OpenLink href={`/load-document/${d.id}`} /> : null,
                ]}
              />
            </CardSection>
            <CardSection title={t("card.dms", { status: t(`dmsStatus.${card.item.dms_status}`, { defaultValue: card.item.dms_status }) })} testId="card-dms">
              <CardTable
                rows={card.dms}
                empty={t("card.noDms")}
                cells={(r) => [
                  r.what === "notice" ? t("card.notice") : r.document_name,
                  `${t(`dmsStatus.${r.status}`, { defaultValue: r.status })}${r.error ? ` · ${r.error}` : ""}`,
                  <>
                    <Code>{r.location ?? ""}</Code>
                    {r.storage_policy_name ? ` (${r.storage_policy_name})` : ""}
                  </>,
                  r.status === "succeeded" ? <OpenLink href={`/load-dms/${r.id}`} /> : null,
                ]}
              />
            </CardSection>
            <CardSection title={t("card.mail")} testId="card-mail">
              <CardTable
                rows={card.mail}
                empty={t("card.noMail")}
                cells={(m) => [
                  new Date(m.created_at).toISOString().replace("T", " ").slice(0, 16),
                  m.to_addresses.join(", "),
                  m.subject,
                  `${t(`mailStatus.${m.status}`, { defaultValue: m.status })}${m.error ? ` · ${m.error}` : ""}`,
                ]}
              />
            </CardSection>
            {card.envelopes.map((e) => (
              <CardSection key={e.id} title={`${t("card.envelope")}: ${e.name}`}>
                <Text size="sm">
                  <b>{t("card.filedBy")}:</b> {e.filed_by} · <b>{t("card.filed")}:</b> {e.date}
                </Text>
                <Text size="sm" mt="xs">
                  <b>{t("card.docketText")}:</b> {e.docket_text}
                </Text>
              </CardSection>
            ))}
            <CardSection title={t("card.originalEmail")} testId="card-original">
              {email?.html ? (
                <iframe
                  title={t("card.originalEmail")}
                  sandbox=""
                  srcDoc={sandboxedHtml(email.html)}
                  style={{ width: "100%", minHeight: 360, border: "1px solid var(--mantine-color-default-border)", background: "#fff" }}
                />
              ) : (
                <Code block>{email?.text}</Code>
              )}
              <details>
                <summary>{t("card.rawSource")}</summary>
                {email?.truncated ? <Text size="xs">{t("card.rawTruncated")}</Text> : null}
                <Code block style={{ whiteSpace: "pre-wrap", maxHeight: 480, overflow: "auto" }} data-testid="card-raw">
                  {email?.source}
                </Code>
              </details>
              <Anchor href={`/load-notice/${item.id}`} size="sm">
                {t("card.downloadEml")}
              </Anchor>
            </CardSection>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack>
            <CardSection title={t("card.linked")} testId="card-linked">
              {card.linked.length === 0 ? (
                <Text size="sm">{t("card.noLinked")}</Text>
              ) : (
                card.linked.map((l) => (
                  <Text size="sm" key={l.id}>
                    {l.id === item.parent_id
                      ? t("card.parent")
                      : l.id === item.duplicate_of_id
                        ? t("card.original")
                        : l.duplicate_of_id === item.id
                          ? t("card.duplicate")
                          : t("card.child")}
                    :{" "}
                    <Anchor component={Link} to={`/inbox-items/id/${l.id}`}>
                      {l.snippet || l.subject}
                    </Anchor>{" "}
                    ({tr(`inbox-items.options.status.${l.status}`)})
                  </Text>
                ))
              )}
            </CardSection>
            <CardSection title={t("card.history")} testId="card-history">
              <Table>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t("card.time")}</Table.Th>
                    <Table.Th>{t("card.event")}</Table.Th>
                    <Table.Th>{t("card.detail")}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {card.events.map((e, i) => (
                    <Table.Tr key={i}>
                      <Table.Td>{when(e.created_at)}</Table.Td>
                      <Table.Td>{e.event}</Table.Td>
                      <Table.Td>{e.detail}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </CardSection>
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
