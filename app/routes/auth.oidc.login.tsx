import type { LoaderFunctionArgs } from "@remix-run/node";
import { startSsoSignIn } from "../utils/sso.server";

// "Sign in with single sign-on" of a firm on OpenID Connect: a plain link, JavaScript or not.
export const loader = ({ request }: LoaderFunctionArgs) => startSsoSignIn(request, "oidc");
