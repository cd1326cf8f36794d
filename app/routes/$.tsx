import { Center, Paper } from "../utils/mantine-document";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { NotFound } from "../components/NotFound";
import { notFoundAnswer } from "../utils/not-found.server";

// Any address no other route takes: 404, for visitors signed in or not (decision 035).
export const handle = { titleKey: "pages.notFound" };

export function loader({ request }: LoaderFunctionArgs) {
  return notFoundAnswer(request);
}

export default function NotFoundPage() {
  const { home } = useLoaderData<typeof loader>();
  return (
    <Center mih="100vh" p="md">
      <Paper withBorder shadow="sm" p="xl" radius="md" w={560} maw="100%">
        <NotFound home={home} />
      </Paper>
    </Center>
  );
}
