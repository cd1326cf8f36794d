import { type ChildProcess, spawn } from "node:child_process";
import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

// Windows sign-in in front of the SharePoint Server stand-in, by software we did not write:
// Apache httpd with mod_auth_gssapi accepting NTLM through the gss-ntlmssp GSSAPI mechanism
// (Debian packages apache2, libapache2-mod-auth-gssapi, gss-ntlmssp; .ci/run installs them).
// gss-ntlmssp checks the NTLMv2 answer against the accounts of the file NTLM_USER_FILE names
// ("DOMAIN:user:password" lines); mod_auth_gssapi keeps the sign-in on the connection
// (GssapiConnectionBound, which NTLM needs) and the signed-in account goes on to the stand-in
// in X-Remote-User, through mod_proxy. It is started here as `apache2 -f <config> -DFOREGROUND`
// in a temporary directory, on a free loopback port, and stopped with the test.

const MODULES = "/usr/lib/apache2/modules";
export const MAX_REQUESTS_PER_CONNECTION = 7;

export interface NtlmFront {
  origin: string;
  /** Apache's error log, for a failing test's message. */
  log(): Promise<string>;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1", () => {
      socket.destroy();
      resolve(true);
    });
    socket.on("error", () => resolve(false));
  });
}

/** Starts Apache on a free port, signing in `accounts` ({domain, user, password}) and passing on to `backend`. */
export async function startNtlmFront(backend: string, accounts: { domain: string; user: string; password: string }[]): Promise<NtlmFront> {
  const dir = await mkdtemp(path.join(tmpdir(), "ecfx-ntlm-"));
  // Apache's children read the account file as the unprivileged user when started as root.
  await chmod(dir, 0o755);
  const users = path.join(dir, "users");
  await writeFile(users, accounts.map((account) => `${account.domain}:${account.user}:${account.password}\n`).join(""), { mode: 0o644 });
  const port = await freePort();
  const config = [
    `ServerRoot ${dir}`,
    `DefaultRuntimeDir ${dir}`,
    `PidFile ${dir}/httpd.pid`,
    `ErrorLog ${dir}/error.log`,
    "LogLevel warn",
    "ServerName sharepoint.contoso.test",
    `Listen 127.0.0.1:${port}`,
    ...["mpm_event", "authn_core", "authz_core", "authz_user", "auth_gssapi", "proxy", "proxy_http", "headers"].map(
      (name) => `LoadModule ${name}_module ${MODULES}/mod_${name}.so`,
    ),
    "User nobody",
    "Group nogroup",
    "KeepAlive On",
    // A connection ends after a few requests: filings cross connections and must sign in again.
    `MaxKeepAliveRequests ${MAX_REQUESTS_PER_CONNECTION}`,
    "<Location />",
    "  AuthType GSSAPI",
    '  AuthName "SharePoint"',
    "  GssapiAllowedMech ntlmssp",
    "  GssapiConnectionBound On",
    "  Require valid-user",
    "</Location>",
    'RequestHeader set X-Remote-User "expr=%{REMOTE_USER}"',
    "ProxyPreserveHost On",
    `ProxyPass / ${backend}/ nocanon`,
    "AllowEncodedSlashes NoDecode",
    "",
  ].join("\n");
  await writeFile(path.join(dir, "httpd.conf"), config);
  const child: ChildProcess = spawn("apache2", ["-f", path.join(dir, "httpd.conf"), "-DFOREGROUND"], {
    env: { ...process.env, NTLM_USER_FILE: users },
    stdio: "ignore",
  });
  const log = () => readFile(path.join(dir, "error.log"), "utf8").catch(() => "");
  let exited = false;
  child.on("exit", () => (exited = true));
  for (let attempt = 0; !(await answers(port)); attempt++) {
    if (exited || attempt > 200) throw new Error(`Apache (mod_auth_gssapi, gss-ntlmssp) did not start: ${await log()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    origin: `http://127.0.0.1:${port}`,
    log,
    close: async () => {
      if (!exited) {
        const gone = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await gone;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
