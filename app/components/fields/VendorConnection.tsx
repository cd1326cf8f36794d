import { Alert, Button, Card, Stack, Text } from "../../utils/mantine";
import { useTranslation } from "react-i18next";

interface Status {
  connected: boolean;
  connectedAt: number | null;
}

/**
 * Whether a credential is connected to a vendor that needs a person's approval (Clio), and the
 * way to connect it: a plain link to the console's start of the connection, which sends the
 * browser on to the vendor's consent page (a link, since the console's forms post to itself only).
 */
export function VendorConnection({ system, credentialId, status }: { system: string; credentialId: string; status: Status | null }) {
  const { t, i18n } = useTranslation();
  const name = t(`storage:authorization.systems.${system}`, { defaultValue: system });
  const when = status?.connectedAt
    ? new Intl.DateTimeFormat(i18n.language || "en", { dateStyle: "medium", timeStyle: "short" }).format(status.connectedAt)
    : null;
  return (
    <Card withBorder data-testid="vendor-connection">
      <Stack gap="sm">
        <Text fw={600}>{t("storage:authorization.title", { system: name })}</Text>
        {status?.connected ? (
          <Alert color="green" role="status" data-testid="vendor-connected">
            {when ? t("storage:authorization.connected", { system: name, when }) : t("storage:authorization.connectedUnknown", { system: name })}
          </Alert>
        ) : (
          <Alert color="yellow" role="status" data-testid="vendor-not-connected">
            {t("storage:authorization.notConnected", { system: name })}
          </Alert>
        )}
        <div>
          <Button
            component="a"
            href={`/oauth/${system}/start?credential=${encodeURIComponent(credentialId)}`}
            variant={status?.connected ? "default" : "filled"}
          >
            {t(status?.connected ? "storage:authorization.reconnect" : "storage:authorization.connect", { system: name })}
          </Button>
        </div>
      </Stack>
    </Card>
  );
}
