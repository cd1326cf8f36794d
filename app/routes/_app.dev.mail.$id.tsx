import { Card, Code, Stack, Tabs, Text, Title } from "../utils/mantine";
import { type LoaderFunctionArgs, data } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { requireUser } from "../utils/auth.server";
import { sandboxedHtml } from "../utils/sandboxed-html";

interface Mail {
  id: string;
  subject: string;
  to_addresses: string[];
  html_body: string;
  text_body: string;
  raw: string;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { api } = await requireUser(request, "firmAccess");
  const { data: mail } = await api.json<Mail>(`/api/v1/outbox/${encodeURIComponent(params.id ?? "")}`);
  return data({ mail });
}

/** One captured message: its HTML in a sandboxed frame (no scripts, no remote content) and its source. */
export default function CapturedMail() {
  const { mail } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <Card withBorder data-testid="mail-detail">
      <Stack gap="xs">
        <Title order={3} size="h5">
          {mail.subject}
        </Title>
        <Text size="sm">
          {t("dev.to")}: {mail.to_addresses.join(", ")}
        </Text>
        <Tabs defaultValue="preview" keepMounted>
          <Tabs.List>
            <Tabs.Tab value="preview">{t("dev.preview")}</Tabs.Tab>
            <Tabs.Tab value="raw">{t("dev.raw")}</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="preview" pt="sm">
            <iframe
              title={t("dev.preview")}
              sandbox=""
              srcDoc={sandboxedHtml(mail.html_body)}
              style={{ width: "100%", minHeight: 320, border: "1px solid var(--mantine-color-default-border)", background: "#fff" }}
            />
            <Code block data-testid="mail-text" mt="sm">
              {mail.text_body}
            </Code>
          </Tabs.Panel>
          <Tabs.Panel value="raw" pt="sm">
            <Code block style={{ whiteSpace: "pre-wrap" }}>
              {mail.raw}
            </Code>
          </Tabs.Panel>
        </Tabs>
      </Stack>
    </Card>
  );
}
