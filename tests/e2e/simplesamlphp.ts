import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

// SimpleSAMLphp from Debian (`apt-get install --no-install-recommends simplesamlphp php-cli
// php-xml php-mbstring`) as a firm's SAML identity provider: a configuration folder of the test's
// own (the packaged config.php with this test's addresses and folders, a user name and password
// source, a key pair made by openssl, and ECFX's service provider), served by PHP's own server.

const SSP_WWW = "/usr/share/simplesamlphp/www";
const PACKAGED_CONFIG = "/etc/simplesamlphp/config.php";

export interface IdpUser {
  username: string;
  password: string;
  email: string;
}

export interface RunningIdp {
  origin: string;
  metadataUrl: string;
  /** Names ECFX's service provider: its entity id, addresses and certificate (for encrypted assertions). */
  trustServiceProvider(sp: { entityId: string; acs: string; slo: string; certificate: string }): void;
  stop(): void;
}

const php = (value: unknown): string => JSON.stringify(value).replace(/\$/g, "\\$");

export async function startSimpleSamlPhp(folder: string, port: number, users: IdpUser[]): Promise<RunningIdp> {
  fs.rmSync(folder, { recursive: true, force: true });
  for (const sub of ["config", "cert", "metadata", "log", "tmp", "sessions"]) fs.mkdirSync(path.join(folder, sub), { recursive: true });
  const at = (...parts: string[]) => path.resolve(folder, ...parts);
  const origin = `http://127.0.0.1:${port}`;

  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-days",
      "30",
      "-subj",
      "/CN=simplesamlphp-test-idp",
      "-keyout",
      at("cert", "idp.key"),
      "-out",
      at("cert", "idp.crt"),
    ],
    { stdio: "ignore" },
  );

  const overrides = {
    baseurlpath: `${origin}/`,
    certdir: `${at("cert")}/`,
    metadatadir: `${at("metadata")}/`,
    loggingdir: `${at("log")}/`,
    datadir: `${at("tmp")}/`,
    tempdir: at("tmp"),
    "logging.handler": "file",
    "enable.saml20-idp": true,
    "session.cookie.secure": false,
    // The packaged SameSite=None needs Secure, which a browser refuses on plain http.
    "session.cookie.samesite": "Lax",
    secretsalt: "ecfx-e2e-simplesamlphp-salt",
    "auth.adminpassword": "ecfx-e2e-admin",
    technicalcontact_email: "e2e@ecfx.test",
  };
  const config = `${fs.readFileSync(PACKAGED_CONFIG, "utf8")}\n${Object.entries(overrides)
    .map(([key, value]) => `$config[${php(key)}] = ${php(value)};`)
    .join("\n")}\n$config['module.enable']['exampleauth'] = true;\n`;
  fs.writeFileSync(at("config", "config.php"), config);

  const userEntries = users
    .map((u) => `${php(`${u.username}:${u.password}`)} => ['uid' => [${php(u.username)}], 'email' => [${php(u.email)}]],`)
    .join("\n    ");
  fs.writeFileSync(
    at("config", "authsources.php"),
    `<?php\n$config = [\n  'admin' => ['core:AdminPassword'],\n  'example-userpass' => [\n    'exampleauth:UserPass',\n    ${userEntries}\n  ],\n];\n`,
  );
  fs.writeFileSync(
    at("metadata", "saml20-idp-hosted.php"),
    `<?php\n$metadata['__DYNAMIC:1__'] = ['host' => '__DEFAULT__', 'privatekey' => 'idp.key', 'certificate' => 'idp.crt', 'auth' => 'example-userpass'];\n`,
  );
  fs.writeFileSync(at("metadata", "saml20-sp-remote.php"), "<?php\n");

  const child: ChildProcess = spawn("php", ["-d", `session.save_path=${at("sessions")}`, "-S", `127.0.0.1:${port}`, "-t", SSP_WWW], {
    env: { ...process.env, SIMPLESAMLPHP_CONFIG_DIR: at("config") },
    stdio: "ignore",
  });
  const metadataUrl = `${origin}/saml2/idp/metadata.php`;
  for (let i = 0; ; i++) {
    const ok = await fetch(metadataUrl).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (i > 100) {
      child.kill();
      throw new Error(`SimpleSAMLphp did not answer on ${metadataUrl}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  return {
    origin,
    metadataUrl,
    trustServiceProvider(sp) {
      const certData = sp.certificate.replace(/-----(BEGIN|END) CERTIFICATE-----|\s/g, "");
      fs.writeFileSync(
        at("metadata", "saml20-sp-remote.php"),
        `<?php\n$metadata[${php(sp.entityId)}] = [\n  'AssertionConsumerService' => ${php(sp.acs)},\n  'SingleLogoutService' => ${php(sp.slo)},\n  'certData' => ${php(certData)},\n  'assertion.encryption' => true,\n  'validate.authnrequest' => true,\n  'sign.logout' => true,\n];\n`,
      );
    },
    stop() {
      child.kill();
    },
  };
}
