import { AppShell, Burger, Text, Title } from "../../utils/mantine";
import { Row } from "../Row";
import { Link, useFetcher } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { UserRoleMap } from "../../common/access";
import type { ProductPart } from "../../common/entitled-features";
import type { FirmBranding } from "../../common/firm-schema";
import { DRAWER_WIDTH, TOOLBAR_HEIGHT } from "../../utils/theme";
import type { ThemeStore } from "../../utils/versioned-store";
import { DrawerNav } from "./DrawerNav";
import { useMobileDrawer } from "./mobile-drawer";
import { ThemeControls } from "./ThemeControls";
import { UserMenu } from "./UserMenu";

interface Props {
  title: string;
  theme: ThemeStore;
  branding: FirmBranding | null;
  user: { fullName: string; email: string };
  role: UserRoleMap;
  /** The firm's parts of the product on this host: the drawer leaves the others out. */
  parts: readonly ProductPart[];
  children: ReactNode;
}

/** Drawer (298px) and toolbar (70px) around every signed-in page. */
export function AppShellLayout({ title, theme, branding, user, role, parts, children }: Props) {
  const { t } = useTranslation();
  const fetcher = useFetcher();
  // Optimistic: the drawer moves at once while the preference is saved.
  const pendingOpen = fetcher.formData?.get("drawerOpen");
  const opened = pendingOpen != null ? pendingOpen === "true" : theme.drawerOpen;
  const mobile = useMobileDrawer();

  return (
    <AppShell
      header={{ height: TOOLBAR_HEIGHT }}
      navbar={{ width: DRAWER_WIDTH, breakpoint: "sm", collapsed: { mobile: !mobile.opened, desktop: !opened } }}
      padding="md"
      data-accessible-colors={theme.accessibleColors}
    >
      <a className="skip-link" href="#main">
        {t("shell.skipToContent")}
      </a>
      <AppShell.Header>
        <Row style={{ paddingInline: "var(--mantine-spacing-md)", height: "100%" }} justify="space-between" wrap="nowrap">
          {/* The title gives way (cut with an ellipsis) before the account controls do: on a phone a
              long page title must not push "Sign out" off the screen. */}
          <Row gap="sm" wrap="nowrap" className="toolbar-start">
            {/* Two burgers, one per screen size (CSS picks): the saved preference, the page-only drawer. */}
            <fetcher.Form method="post" action="/preferences/theme" className="drawer-toggle-wide">
              <input type="hidden" name="drawerOpen" value={String(!opened)} />
              <Burger component="button" type="submit" opened={opened} aria-label={t("shell.toggleDrawer")} aria-expanded={opened} size="sm" />
            </fetcher.Form>
            <Burger
              renderRoot={(props) => <Link {...props} to={mobile.href} preventScrollReset />}
              onClick={(event) => {
                event.preventDefault();
                mobile.toggle();
              }}
              opened={mobile.opened}
              aria-label={t("shell.toggleDrawer")}
              aria-expanded={mobile.opened}
              className="drawer-toggle-narrow"
              size="sm"
              data-testid="mobile-drawer-toggle"
            />
            {branding?.has_logo ? <img src={`/firm-logo.png?firm=${branding.id}`} alt="" height={36} /> : null}
            <Text fw={700} c="firm" visibleFrom="xs">
              {branding?.name ?? t("appName")}
            </Text>
            <Title order={1} size="h4" ml="md" data-testid="page-title" className="toolbar-title" title={title}>
              {title}
            </Title>
          </Row>
          <Row gap="xs" wrap="nowrap" className="toolbar-end">
            <ThemeControls theme={theme} />
            <UserMenu user={user} />
          </Row>
        </Row>
      </AppShell.Header>
      {/* The drawer scrolls on its own: on a short screen its last groups are below the fold. */}
      <AppShell.Navbar p="xs" aria-label={t("shell.toggleDrawer")} style={{ overflowY: "auto" }}>
        <DrawerNav role={role} parts={parts} />
      </AppShell.Navbar>
      <AppShell.Main id="main">{children}</AppShell.Main>
    </AppShell>
  );
}
