import type { LoaderFunctionArgs } from "@remix-run/node";
import { acceptOidcCallback } from "../utils/sso.server";

// The OpenID Connect redirect URI: the issuer sends the browser back here with a code and the state.
export const loader = ({ request }: LoaderFunctionArgs) => acceptOidcCallback(request);
