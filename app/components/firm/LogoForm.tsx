import { Button, Card, Group, Image, Input, Stack, Text, Title } from "../../utils/mantine";
import { Form, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { LOGO_INTENT, logoSrc } from "./logo";

interface Props {
  firm: { id: number; updated_at: number; has_logo: boolean };
  canEdit: boolean;
}

/** The current logo and, for roles that may change it, a plain file upload (works without JavaScript). */
export function LogoForm({ firm, canEdit }: Props) {
  const { t } = useTranslation("firm");
  const busy = useNavigation().state !== "idle";
  return (
    <Card withBorder data-testid="firm-logo-card">
      <Title order={2} size="h4" mb="sm">
        {t("logo.title")}
      </Title>
      <Stack gap="sm">
        {firm.has_logo ? (
          <Image src={logoSrc(firm)} alt={t("logo.current")} maw={200} fit="contain" data-testid="firm-logo" />
        ) : (
          <Text size="sm" c="dimmed">
            {t("logo.none")}
          </Text>
        )}
        {canEdit ? (
          <Form method="post" encType="multipart/form-data">
            <input type="hidden" name="intent" value={LOGO_INTENT} />
            <Group align="flex-end">
              <Input.Wrapper label={t("logo.file")} description={t("logo.rules")} labelElement="label" id="firm-logo-file">
                <input id="firm-logo-file" type="file" name="logo" accept="image/png" required style={{ display: "block" }} />
              </Input.Wrapper>
              <Button type="submit" variant="light" loading={busy}>
                {t("logo.upload")}
              </Button>
            </Group>
          </Form>
        ) : null}
      </Stack>
    </Card>
  );
}
