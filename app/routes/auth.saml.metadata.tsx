import type { LoaderFunctionArgs } from "@remix-run/node";
import { samlMetadata } from "../utils/sso.server";

// The firm's SAML service provider metadata, for its identity provider's administrators.
export const loader = ({ request }: LoaderFunctionArgs) => samlMetadata(request);
