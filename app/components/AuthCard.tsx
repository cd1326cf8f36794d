import { Center, Paper, Stack, Text, Title } from "../utils/mantine-document";
import type { ReactNode } from "react";
import type { FirmBranding } from "../common/firm-schema";

/** The frame of the sign-in pages: the firm's logo and name, then the form. */
export function AuthCard({ branding, title, children }: { branding: FirmBranding | null; title: string; children: ReactNode }) {
  return (
    <Center mih="100vh" p="md" bg="var(--mantine-color-body)">
      <Paper withBorder shadow="sm" p="xl" radius="md" w={420} maw="100%">
        <Stack gap="md">
          <Stack gap={4} align="center">
            {branding?.has_logo ? <img src={`/firm-logo.png?firm=${branding.id}`} alt="" height={64} /> : null}
            <Text fw={700} c="firm" size="lg" data-testid="firm-name">
              {branding?.name}
            </Text>
            <Title order={1} size="h3">
              {title}
            </Title>
          </Stack>
          {children}
        </Stack>
      </Paper>
    </Center>
  );
}
