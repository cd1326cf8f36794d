import { Alert, Anchor, Center, Stack } from "../utils/mantine-document";
import { Link, isRouteErrorResponse, useLocation, useRouteError } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { NotFound } from "./NotFound";

/** What a page shows when its data could not be loaded: the catalogue's words, never a stack. */
export function PageError() {
  const error = useRouteError();
  const { t } = useTranslation();
  const location = useLocation();
  let key = "errors:internal";
  if (isRouteErrorResponse(error) && (error.data as { notFound?: boolean } | undefined)?.notFound) {
    return (
      <Center p="xl">
        <NotFound home={(error.data as { home: string }).home} />
      </Center>
    );
  }
  if (isRouteErrorResponse(error)) {
    const data = error.data as { key?: string } | undefined;
    key = data?.key ?? (error.status === 404 ? "errors:notFound" : error.status >= 500 ? "errors:internal" : "errors:loadingFailed");
  }
  return (
    <Center p="xl">
      <Stack maw={560}>
        <Alert color="red" role="alert" data-testid="page-error">
          {t(key)}
        </Alert>
        {isRouteErrorResponse(error) && error.status === 503 ? (
          <Anchor href={location.pathname + location.search} data-testid="try-again">
            {t("tryAgain")}
          </Anchor>
        ) : null}
        <Anchor component={Link} to="/dashboard" reloadDocument>
          {t("success.back")}
        </Anchor>
      </Stack>
    </Center>
  );
}
