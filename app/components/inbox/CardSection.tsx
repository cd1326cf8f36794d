import { Card, Title } from "../../utils/mantine";
import type { ReactNode } from "react";

export function CardSection({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  return (
    <Card withBorder data-testid={testId}>
      <Title order={2} size="h5" mb="xs">
        {title}
      </Title>
      {children}
    </Card>
  );
}
